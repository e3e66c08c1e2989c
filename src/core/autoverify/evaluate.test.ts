import { describe, expect, it } from 'vitest';
import { defaultRuleDocument, type RuleDocument } from '../../shared/schemas/autoverify.js';
import { evaluateAutoverification, type AutoverifyFacts } from './evaluate.js';

/** One condition at a time: a normal glucose that every default rule releases, then each way it is held. */

const ENTERED = '2026-12-02T10:00:00.000Z';

function facts(over: Partial<AutoverifyFacts> = {}, result: Partial<AutoverifyFacts['result']> = {}): AutoverifyFacts {
  return {
    result: {
      value: '92',
      unit: 'mg/dL',
      status: 'completed',
      flag: 'normal',
      normal_range: '70-110',
      is_critical: false,
      delta_failed: false,
      previous_value: null,
      previous_at: null,
      amended: false,
      calculated: false,
      entered_at: ENTERED,
      ...result,
    },
    test: { id: 1, name: 'Glucose', department: 'Biochemistry', plausible_low: 10, plausible_high: 600 },
    sampleCondition: null,
    patientAgeDays: 40 * 365,
    qc: [{ name: 'Level 1', run: { performed_at: '2026-12-02T07:00:00.000Z', status: 'passed', overridden: false } }],
    instrumentFlag: null,
    inputs: [],
    sampleValues: new Map(),
    orderedTestIds: new Set([1]),
    stopped: null,
    day: (iso) =>
      new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(iso)),
    ...over,
  };
}

const doc = (change: (d: RuleDocument) => void = () => {}) => {
  const d = defaultRuleDocument();
  change(d);
  return d;
};

function held(e: ReturnType<typeof evaluateAutoverification>) {
  expect(e.decision).toBe('hold');
  return e.reasons.filter((r) => !r.passed);
}

describe('the evaluator', () => {
  it('releases a normal numeric result with QC passed, every reason passed and said', () => {
    const e = evaluateAutoverification(doc(), facts());
    expect(e.decision).toBe('release');
    expect(e.reasons.every((r) => r.passed)).toBe(true);
    expect(e.reasons.map((r) => r.rule)).toEqual(
      expect.arrayContaining([
        'numeric',
        'reportable',
        'range',
        'critical',
        'delta',
        'qc',
        'instrument_flag',
        'sample_quality',
        'patient_group',
      ]),
    );
    expect(e.reasons.find((r) => r.rule === 'range')!.text).toBe('inside the reference range 70-110');
  });

  it('holds a text value and a censored one ("<5") as not numeric', () => {
    expect(held(evaluateAutoverification(doc(), facts({}, { value: 'Positive' })))[0]!.rule).toBe('numeric');
    const censored = held(evaluateAutoverification(doc(), facts({}, { value: '>600' })));
    expect(censored.map((r) => r.rule)).toContain('reportable');
  });

  it('holds outside the reportable range (the test plausible range, or the rule set own limits)', () => {
    expect(held(evaluateAutoverification(doc(), facts({}, { value: '700' }))).map((r) => r.rule)).toContain(
      'reportable',
    );
    const own = doc((d) => (d.defaults.reportable_limits = { low: 20, high: 400 }));
    const r = held(evaluateAutoverification(own, facts({}, { value: '450', flag: 'normal' })));
    expect(r.map((x) => x.text)).toContain('held: 450 mg/dL is outside the reportable range 20-400');
  });

  it('holds outside the reference range; a wider auto-release range releases it', () => {
    const high = facts({}, { value: '128', flag: 'high' });
    expect(held(evaluateAutoverification(doc(), high))[0]!.text).toBe(
      'held: 128 mg/dL is high against the reference range 70-110',
    );
    const wide = doc((d) => {
      d.defaults.range = 'auto_release';
      d.defaults.auto_release_limits = { low: 60, high: 140 };
    });
    expect(evaluateAutoverification(wide, high).decision).toBe('release');
    expect(held(evaluateAutoverification(wide, facts({}, { value: '150', flag: 'high' })))[0]!.rule).toBe('range');
  });

  it('holds a result with no reference range to judge it by', () => {
    expect(held(evaluateAutoverification(doc(), facts({}, { normal_range: null, flag: null })))[0]!.rule).toBe('range');
  });

  it('holds a critical value', () => {
    const r = held(evaluateAutoverification(doc(), facts({}, { value: '45', flag: 'low', is_critical: true })));
    expect(r.map((x) => x.rule)).toContain('critical');
  });

  it('holds a delta beyond the rule set limit, in words: "held: delta +48% against 12 Nov (limit 25%)"', () => {
    const d = doc((x) => (x.defaults.delta = { kind: 'percent', limit: 25 }));
    const prev = { previous_value: '62.5', previous_at: '2026-11-12T09:00:00.000Z' };
    const r = held(evaluateAutoverification(d, facts({}, { value: '92.5', ...prev })));
    expect(r).toEqual([{ rule: 'delta', passed: false, text: 'held: delta +48% against 12 Nov (limit 25%)' }]);
    expect(evaluateAutoverification(d, facts({}, { value: '70', ...prev })).decision).toBe('release');
    const abs = doc((x) => (x.defaults.delta = { kind: 'absolute', limit: 20 }));
    expect(held(evaluateAutoverification(abs, facts({}, { value: '92.5', ...prev })))[0]!.text).toBe(
      'held: delta +30 against 12 Nov (limit 20)',
    );
  });

  it("without a delta limit of its own, follows the test's delta check; no previous value passes", () => {
    const prev = { previous_value: '60', previous_at: '2026-11-12T09:00:00.000Z' };
    expect(held(evaluateAutoverification(doc(), facts({}, { ...prev, delta_failed: true })))[0]!.rule).toBe('delta');
    const none = evaluateAutoverification(doc(), facts());
    expect(none.reasons.find((r) => r.rule === 'delta')!.text).toBe('no previous verified value to compare');
  });

  it('holds when QC is missing, old, or rejected; an overridden rejection passes', () => {
    const run = (performed_at: string, status = 'passed', overridden = false) => [
      { name: 'Level 1', run: { performed_at, status, overridden } },
    ];
    expect(held(evaluateAutoverification(doc(), facts({ qc: [] })))[0]!.text).toBe(
      'held: no QC material is set up for Glucose',
    );
    expect(held(evaluateAutoverification(doc(), facts({ qc: [{ name: 'Level 1', run: null }] })))[0]!.rule).toBe('qc');
    expect(held(evaluateAutoverification(doc(), facts({ qc: run('2026-11-30T09:00:00.000Z') })))[0]!.text).toBe(
      'held: QC Level 1 last ran 49 h before the result (limit 24 h)',
    );
    expect(
      held(evaluateAutoverification(doc(), facts({ qc: run('2026-12-02T09:00:00.000Z', 'failed') })))[0]!.rule,
    ).toBe('qc');
    expect(
      evaluateAutoverification(doc(), facts({ qc: run('2026-12-02T09:00:00.000Z', 'failed', true) })).decision,
    ).toBe('release');
    const noQc = doc((d) => (d.defaults.qc_within_hours = null));
    expect(evaluateAutoverification(noQc, facts({ qc: [] })).decision).toBe('release');
  });

  it('holds an instrument flag, but not "N"', () => {
    expect(held(evaluateAutoverification(doc(), facts({ instrumentFlag: 'W' })))[0]!.text).toBe(
      'held: the analyzer flagged it "W"',
    );
    expect(evaluateAutoverification(doc(), facts({ instrumentFlag: 'N' })).decision).toBe('release');
  });

  it('holds a haemolysed, lipaemic or icteric sample where the lab recorded it', () => {
    for (const c of ['Mildly haemolysed', 'Hemolyzed', 'Lipemic', 'Icteric'])
      expect(held(evaluateAutoverification(doc(), facts({ sampleCondition: c })))[0]!.rule).toBe('sample_quality');
    expect(evaluateAutoverification(doc(), facts({ sampleCondition: 'Acceptable' })).decision).toBe('release');
  });

  it('holds a patient of an excluded group (newborns) and one of unknown age', () => {
    expect(held(evaluateAutoverification(doc(), facts({ patientAgeDays: 5 })))[0]!.text).toBe(
      'held: the patient is in an excluded group: Newborns (5 days old)',
    );
    expect(held(evaluateAutoverification(doc(), facts({ patientAgeDays: null })))[0]!.rule).toBe('patient_group');
  });

  it('checks consistency between tests of the sample (total >= direct bilirubin)', () => {
    const d = doc((x) => x.consistency.push({ label: 'Bilirubin', left_test_id: 1, op: '>=', right_test_id: 2 }));
    const tbil = {
      test: { id: 1, name: 'Bilirubin total', department: null, plausible_low: null, plausible_high: null },
    };
    const withDirect = (v: number) => ({
      ...tbil,
      orderedTestIds: new Set([1, 2]),
      sampleValues: new Map([[2, { name: 'Bilirubin direct', value: v }]]),
    });
    expect(evaluateAutoverification(d, facts(withDirect(0.3), { value: '0.9' })).decision).toBe('release');
    expect(held(evaluateAutoverification(d, facts(withDirect(1.2), { value: '0.9' })))[0]!.text).toBe(
      'held: Bilirubin: Bilirubin total 0.9 not >= Bilirubin direct 1.2',
    );
    const waiting = { ...tbil, orderedTestIds: new Set([1, 2]) };
    expect(held(evaluateAutoverification(d, facts(waiting, { value: '0.9' })))[0]!.rule).toBe('consistency');
    expect(evaluateAutoverification(d, facts(tbil, { value: '0.9' })).decision).toBe('release');
  });

  it('holds a calculated result until its inputs are released', () => {
    const calc = { calculated: true };
    const inputs = [
      { name: 'Cholesterol', released: true },
      { name: 'HDL', released: false },
    ];
    expect(held(evaluateAutoverification(doc(), facts({ inputs }, calc)))[0]!.text).toBe(
      'held: calculated from results not yet released (HDL)',
    );
    expect(evaluateAutoverification(doc(), facts({ inputs: [inputs[0]!] }, calc)).decision).toBe('release');
    // No control material of its own: its inputs' QC judged them.
    const noQc = evaluateAutoverification(doc(), facts({ inputs: [inputs[0]!], qc: [] }, calc));
    expect(noQc.decision).toBe('release');
    expect(noQc.reasons.map((r) => r.rule)).not.toContain('qc');
  });

  it('holds an amended result and one not awaiting verification', () => {
    expect(held(evaluateAutoverification(doc(), facts({}, { amended: true })))[0]!.rule).toBe('amended');
    expect(held(evaluateAutoverification(doc(), facts({}, { status: 'verified' })))[0]!.rule).toBe('status');
  });

  it('a stop holds everything, whatever else holds', () => {
    const e = evaluateAutoverification(doc(), facts({ stopped: 'stopped for the whole lab by A: analyser fault' }));
    expect(e).toEqual({
      decision: 'hold',
      reasons: [{ rule: 'stopped', passed: false, text: 'held: stopped for the whole lab by A: analyser fault' }],
    });
  });

  it('covers tests by department and by test; a switched-off one or an unlisted one waits for a person', () => {
    const off = doc((d) => d.departments.push({ department: 'biochemistry', enabled: false, conditions: {} }));
    expect(held(evaluateAutoverification(off, facts()))[0]!.text).toBe('held: switched off for biochemistry');
    const listed = doc((d) => (d.applies_to = 'listed'));
    expect(held(evaluateAutoverification(listed, facts()))[0]!.rule).toBe('covered');
    listed.tests.push({ test_id: 1, enabled: true, conditions: { qc_within_hours: null } });
    expect(evaluateAutoverification(listed, facts({ qc: [] })).decision).toBe('release');
    const deptOwn = doc((d) =>
      d.departments.push({ department: 'Biochemistry', enabled: true, conditions: { range: 'off' } }),
    );
    expect(evaluateAutoverification(deptOwn, facts({}, { value: '128', flag: 'high' })).decision).toBe('release');
  });
});
