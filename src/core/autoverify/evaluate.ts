import { numericValue } from '../../shared/flags.js';
import type {
  AutoverifyConditions,
  AutoverifyDecisionKind,
  DecisionReason,
  RuleDocument,
} from '../../shared/schemas/autoverify.js';

/**
 * The evaluator: what the rules say of one result, from facts gathered beforehand (facts.ts), with
 * no database and no clock of its own, so each condition is tested on its own and a decision can
 * be replayed. Every condition that applies gives a reason, passed or not: the decision is
 * "release" only when all of them passed, and the reasons say why in words a validator reads.
 */

export interface QcLevelFact {
  name: string;
  /** The latest run of the level at or before the result, on its machine; null: never run. */
  run: { performed_at: string; status: string; overridden: boolean } | null;
}

export interface AutoverifyFacts {
  result: {
    value: string | null;
    unit: string | null;
    status: string;
    flag: string | null;
    normal_range: string | null;
    is_critical: boolean;
    delta_failed: boolean;
    previous_value: string | null;
    previous_at: string | null;
    amended: boolean;
    calculated: boolean;
    entered_at: string;
  };
  test: {
    id: number;
    name: string;
    department: string | null;
    plausible_low: number | null;
    plausible_high: number | null;
  };
  /** What the lab recorded of the specimen on receipt ("Mildly haemolysed"), if anything. */
  sampleCondition: string | null;
  /** The patient's completed age in days on the collection day; null: unknown. */
  patientAgeDays: number | null;
  /** The test's active control levels and their latest runs. */
  qc: QcLevelFact[];
  /** The flag or error code the analyzer sent with the value; null: typed, or none sent. */
  instrumentFlag: string | null;
  /** For a calculated result: each input, and whether it is released (or would be, in shadow). */
  inputs: { name: string; released: boolean }[];
  /** The numeric values of the sample's other results, by test id, for consistency checks. */
  sampleValues: ReadonlyMap<number, { name: string; value: number }>;
  /** The tests ordered on the sample: a check whose other test is not ordered does not apply. */
  orderedTestIds: ReadonlySet<number>;
  /** Why autoverification is stopped for this result (lab-wide or the test), or null. */
  stopped: string | null;
  /** Formats an ISO moment as the lab reads a day ("12 Nov"). */
  day: (iso: string) => string;
}

export interface Evaluation {
  decision: AutoverifyDecisionKind;
  reasons: DecisionReason[];
}

/** An analyzer's flag that says nothing is wrong: none, or "N" (normal) of ASTM and HL7. */
const QUIET_FLAGS = new Set(['', 'N']);

const INTERFERENCE = /(ha?emoly|lipa?em|icter)/i;

const HOUR_MS = 3_600_000;

/** What a stop says, whatever the result: "held: autoverification stopped for the whole lab by A: reason". */
export function stoppedEvaluation(
  stop: { text: string } | { test_id: number | null; stopped_by_name: string | null; reason: string },
): Evaluation {
  const text =
    'text' in stop
      ? stop.text
      : `autoverification stopped ${stop.test_id === null ? 'for the whole lab' : 'for this test'} by ${stop.stopped_by_name ?? 'a user'}: ${stop.reason}`;
  return { decision: 'hold', reasons: [{ rule: 'stopped', passed: false, text: `held: ${text}` }] };
}

/** The conditions of a test: its department's and its own over the defaults; null when the rules do not cover it. */
export function conditionsFor(
  doc: RuleDocument,
  test: { id: number; department: string | null },
): { conditions: AutoverifyConditions; covered: true } | { covered: false; why: string } {
  const dept = doc.departments.find(
    (d) => test.department !== null && d.department.trim().toLowerCase() === test.department.trim().toLowerCase(),
  );
  const own = doc.tests.find((t) => t.test_id === test.id);
  if (own && !own.enabled) return { covered: false, why: 'switched off for this test' };
  if (!own && dept && !dept.enabled) return { covered: false, why: `switched off for ${dept.department}` };
  if (!own && !dept && doc.applies_to === 'listed') return { covered: false, why: 'this test is not in the rule set' };
  return { covered: true, conditions: { ...doc.defaults, ...(dept?.conditions ?? {}), ...(own?.conditions ?? {}) } };
}

const fmt = (n: number) => String(Number(n.toPrecision(6)));
const signed = (n: number, suffix: string) => `${n >= 0 ? '+' : ''}${fmt(n)}${suffix}`;

export function evaluateAutoverification(doc: RuleDocument, f: AutoverifyFacts): Evaluation {
  const reasons: DecisionReason[] = [];
  const add = (rule: DecisionReason['rule'], passed: boolean, text: string) =>
    reasons.push({ rule, passed, text: passed ? text : `held: ${text}` });
  const done = () => ({ decision: reasons.every((r) => r.passed) ? 'release' : 'hold', reasons }) as Evaluation;

  if (f.stopped) return stoppedEvaluation({ text: f.stopped });
  const scope = conditionsFor(doc, f.test);
  if (!scope.covered) {
    add('covered', false, scope.why);
    return done();
  }
  const c = scope.conditions;
  const r = f.result;
  if (r.status !== 'completed') add('status', false, `the result is ${r.status}, not awaiting verification`);
  if (r.amended) add('amended', false, 'amended after verification: a person verifies the change');

  const n = r.value === null ? null : numericValue(r.value);
  const shown = `${r.value ?? ''}${r.unit ? ` ${r.unit}` : ''}`.trim();
  if (c.numeric_only)
    add('numeric', n !== null, n !== null ? `numeric value ${shown}` : `"${shown}" is not a plain number`);
  if (c.reportable) add('reportable', ...reportable(c, f.test, n, shown));
  if (c.range !== 'off') add('range', ...inRange(c, r, n, shown));
  if (c.no_critical)
    add('critical', !r.is_critical, r.is_critical ? `${shown} is a critical value` : 'not a critical value');
  add('delta', ...delta(c, r, n, f.day));
  // A calculated result has no control material of its own: its inputs were judged by theirs.
  if (c.qc_within_hours !== null && !r.calculated) add('qc', ...qc(c.qc_within_hours, f));
  if (c.no_instrument_flag) {
    const flag = (f.instrumentFlag ?? '').trim();
    const quiet = QUIET_FLAGS.has(flag.toUpperCase());
    add('instrument_flag', quiet, quiet ? 'no instrument flag' : `the analyzer flagged it "${flag}"`);
  }
  if (c.no_interference) {
    const bad = f.sampleCondition !== null && INTERFERENCE.test(f.sampleCondition);
    add(
      'sample_quality',
      !bad,
      bad ? `the sample was received "${f.sampleCondition}"` : 'no haemolysis, lipaemia or icterus recorded',
    );
  }
  for (const g of doc.excluded_groups) {
    const inGroup = f.patientAgeDays === null || f.patientAgeDays < g.max_age_days;
    add(
      'patient_group',
      !inGroup,
      f.patientAgeDays === null
        ? `the patient's age is unknown (${g.label}: under ${g.max_age_days} days)`
        : inGroup
          ? `the patient is in an excluded group: ${g.label} (${f.patientAgeDays} days old)`
          : `not ${g.label}`,
    );
  }
  for (const check of doc.consistency) consistency(check, f, n, add);
  if (r.calculated && c.calculated_from_released) {
    const waiting = f.inputs.filter((i) => !i.released).map((i) => i.name);
    add(
      'calculated_inputs',
      waiting.length === 0,
      waiting.length
        ? `calculated from results not yet released (${waiting.join(', ')})`
        : 'calculated from released results',
    );
  }
  return done();
}

type Verdict = [passed: boolean, text: string];

function reportable(c: AutoverifyConditions, test: AutoverifyFacts['test'], n: number | null, shown: string): Verdict {
  const low = c.reportable_limits?.low ?? test.plausible_low;
  const high = c.reportable_limits?.high ?? test.plausible_high;
  const span = `${low ?? '…'}-${high ?? '…'}`;
  if (n === null) return [false, `"${shown}" is outside the measurement range or not a number`];
  if ((low !== null && n < low) || (high !== null && n > high))
    return [false, `${shown} is outside the reportable range ${span}`];
  return [true, low === null && high === null ? 'no reportable range set' : `inside the reportable range ${span}`];
}

function inRange(c: AutoverifyConditions, r: AutoverifyFacts['result'], n: number | null, shown: string): Verdict {
  if (c.range === 'auto_release' && c.auto_release_limits) {
    const { low, high } = c.auto_release_limits;
    const span = `${low ?? '…'}-${high ?? '…'}`;
    const inside = n !== null && (low === null || n >= low) && (high === null || n <= high);
    return inside
      ? [true, `inside the auto-release range ${span}`]
      : [false, `${shown} is outside the auto-release range ${span}`];
  }
  if (!r.normal_range || r.flag === null) return [false, `no reference range applies to ${shown}`];
  return r.flag === 'normal'
    ? [true, `inside the reference range ${r.normal_range}`]
    : [false, `${shown} is ${r.flag} against the reference range ${r.normal_range}`];
}

function delta(
  c: AutoverifyConditions,
  r: AutoverifyFacts['result'],
  n: number | null,
  day: (iso: string) => string,
): Verdict {
  const prev = r.previous_value === null ? null : numericValue(r.previous_value);
  if (prev === null || n === null || !r.previous_at) {
    if (!c.delta && r.delta_failed) return [false, "the test's delta check failed"];
    return [true, 'no previous verified value to compare'];
  }
  const when = day(r.previous_at);
  if (!c.delta) {
    return r.delta_failed
      ? [false, `delta against ${when} (${r.previous_value}) beyond the test's limit`]
      : [true, `delta against ${when} within the test's limit`];
  }
  const diff = n - prev;
  if (c.delta.kind === 'percent') {
    const pct = prev === 0 ? (diff === 0 ? 0 : Infinity) : (diff / Math.abs(prev)) * 100;
    const text = Number.isFinite(pct) ? signed(Math.round(pct), '%') : 'from 0';
    return Math.abs(pct) > c.delta.limit
      ? [false, `delta ${text} against ${when} (limit ${fmt(c.delta.limit)}%)`]
      : [true, `delta ${text} against ${when} (limit ${fmt(c.delta.limit)}%)`];
  }
  const text = signed(diff, '');
  return Math.abs(diff) > c.delta.limit
    ? [false, `delta ${text} against ${when} (limit ${fmt(c.delta.limit)})`]
    : [true, `delta ${text} against ${when} (limit ${fmt(c.delta.limit)})`];
}

function qc(hours: number, f: AutoverifyFacts): Verdict {
  if (!f.qc.length) return [false, `no QC material is set up for ${f.test.name}`];
  const at = Date.parse(f.result.entered_at);
  for (const level of f.qc) {
    if (!level.run) return [false, `QC ${level.name} has no run before the result`];
    if (level.run.status === 'failed' && !level.run.overridden)
      return [false, `QC ${level.name} was rejected at its last run (${f.day(level.run.performed_at)})`];
    const age = (at - Date.parse(level.run.performed_at)) / HOUR_MS;
    if (age > hours)
      return [false, `QC ${level.name} last ran ${Math.floor(age)} h before the result (limit ${hours} h)`];
  }
  return [true, `QC passed within ${hours} h (${f.qc.map((l) => l.name).join(', ')})`];
}

const COMPARE: Record<'>=' | '<=' | '>' | '<', (a: number, b: number) => boolean> = {
  '>=': (a, b) => a >= b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '<': (a, b) => a < b,
};

/** A check between two tests of the sample applies to both; it waits until both have a value. */
function consistency(
  check: RuleDocument['consistency'][number],
  f: AutoverifyFacts,
  n: number | null,
  add: (rule: 'consistency', passed: boolean, text: string) => void,
): void {
  const own = f.test.id;
  if (own !== check.left_test_id && own !== check.right_test_id) return;
  const other = own === check.left_test_id ? check.right_test_id : check.left_test_id;
  if (!f.orderedTestIds.has(other)) return;
  const self = n === null ? undefined : { name: f.test.name, value: n };
  const side = (id: number) => (id === own ? self : f.sampleValues.get(id));
  const left = side(check.left_test_id);
  const right = side(check.right_test_id);
  if (!left || !right) {
    add('consistency', false, `${check.label}: the other test of the pair has no value yet`);
    return;
  }
  const ok = COMPARE[check.op](left.value, right.value);
  add(
    'consistency',
    ok,
    `${check.label}: ${left.name} ${fmt(left.value)} ${ok ? '' : 'not '}${check.op} ${right.name} ${fmt(right.value)}`,
  );
}
