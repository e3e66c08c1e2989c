import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { Actor } from '../../src/core/context.js';
import { createResult, enterResult } from '../../src/core/results/entry.js';
import { rejectResult, verifyResult } from '../../src/core/results/verification.js';
import { latestDecisions } from '../../src/core/autoverify/repository.js';
import type { Comparison, DecisionReason, RuleSet } from '../../src/shared/schemas/autoverify.js';
import { localDate } from '../../src/shared/time.js';
import {
  buildCatalogue,
  labRules,
  newPatient,
  orderedPatient,
  seeded,
  type LabTest,
} from './autoverify-labelled-support.js';

/**
 * The labelled set of "Done means": 30 tests, 300 patients, more than 2,000 results with known
 * normals, abnormals, criticals, values beyond the measurement range, delta failures, QC-failed and
 * stale runs, instrument flags, haemolysed samples, newborns, missing previous values and a
 * calculated test. With the lab's rules in live mode, at least 80% of the normal chemistry is
 * released by itself and none of the risky results is; every decision carries its reasons. Then a
 * replayed week in shadow mode is compared with what the validator did, and a stop holds the next result.
 */

type Label =
  | 'normal'
  | 'normal_other'
  | 'abnormal'
  | 'critical'
  | 'out_of_reportable'
  | 'delta'
  | 'qc_failed'
  | 'qc_stale'
  | 'flagged'
  | 'interference'
  | 'excluded'
  | 'text'
  | 'calculated_ok'
  | 'calculated_input_held';

/** What must never leave the lab without a person. */
const MUST_HOLD: Label[] = [
  'abnormal',
  'critical',
  'out_of_reportable',
  'delta',
  'qc_failed',
  'qc_stale',
  'flagged',
  'interference',
  'excluded',
  'text',
  'calculated_input_held',
];

let lab: TestLab;
let tech: Client;
let techActor: Actor;
let validatorActor: Actor;
let tests: LabTest[];
let ruleSet: RuleSet;
const labelled = new Map<number, Label>();
const rand = seeded(39);

beforeAll(async () => {
  lab = await makeLab();
  tech = await lab.as('lab_technician');
  const validator = await lab.as('validator');
  const actor = (c: Client, role: Actor['role']): Actor => ({
    userId: c.userId,
    email: c.email,
    role,
    organizationId: lab.organizationId,
  });
  techActor = actor(tech, 'lab_technician');
  validatorActor = actor(validator, 'validator');
  tests = await buildCatalogue(lab, tech);
}, 120_000);
afterAll(() => lab.close());

const db = () => lab.database.db;
const byName = (prefix: string) => tests.find((t) => t.name.startsWith(`${prefix} `))!;
const between = (a: number, b: number) => Number((a + (b - a) * rand()).toPrecision(3));

async function enter(sampleId: number, testId: number, value: string, flag: string | null = null): Promise<number> {
  if (flag === null)
    return (await createResult(db(), techActor, { sample_id: sampleId, test_id: testId, result_value: value })).id!;
  return db()
    .transaction()
    .execute((trx) =>
      enterResult(
        trx,
        techActor,
        { sample_id: sampleId, test_id: testId, result_value: value },
        { instrumentFlag: flag },
      ),
    );
}

/** A value of the label's kind for a plain numeric test, and the analyzer flag to send with it. */
function valueFor(t: LabTest): { value: string; label: Label; flag: string | null } {
  const span = t.high - t.low;
  const normal = () => String(between(t.low + span * 0.1, t.high - span * 0.1));
  if (t.kind === 'qc_failed' || t.kind === 'qc_stale') return { value: normal(), label: t.kind, flag: null };
  if (t.department !== 'Biochemistry') return { value: normal(), label: 'normal_other', flag: null };
  const r = rand();
  if (r < 0.68) return { value: normal(), label: 'normal', flag: null };
  if (r < 0.78) {
    const low = t.low - span * 0.3 > 0 && rand() < 0.5;
    const v = low ? between(t.low - span * 0.3, t.low - span * 0.1) : between(t.high + span * 0.1, t.high + span * 0.5);
    return { value: String(v), label: 'abnormal', flag: null };
  }
  if (r < 0.85)
    return { value: String(between(t.high + span * 1.6, t.high + span * 2.5)), label: 'critical', flag: null };
  if (r < 0.9)
    return {
      value: rand() < 0.5 ? `>${t.amrHigh}` : String(Number((t.amrHigh * 1.1).toPrecision(4))),
      label: 'out_of_reportable',
      flag: null,
    };
  if (r < 0.96) return { value: normal(), label: 'flagged', flag: rand() < 0.5 ? 'W' : 'E' };
  return { value: normal(), label: 'normal', flag: null };
}

const DELTA_TESTS = ['Glucose', 'Urea', 'Cholesterol'];

/** An earlier sample of three tests verified by a person: the previous values the delta check reads. */
async function history(patientId: number, failing: boolean): Promise<Map<number, number>> {
  const ids = DELTA_TESTS.map((n) => byName(n).id);
  const { sampleOf } = await orderedPatient(lab, tech, ids, { age: 40, patientId });
  const current = new Map<number, number>();
  for (const id of ids) {
    const t = tests.find((x) => x.id === id)!;
    const span = t.high - t.low;
    const now = Number((t.high - span * 0.1).toPrecision(3));
    const before = failing ? Number((t.low + span * 0.1).toPrecision(3)) : Number((now * 0.95).toPrecision(3));
    const rid = await enter(sampleOf.get(id)!, id, String(before));
    await verifyResult(db(), validatorActor, rid);
    current.set(id, now);
  }
  return current;
}

describe('the lab’s default rules on a labelled set of 2,000+ results', () => {
  beforeAll(async () => {
    const created = await lab.admin.post('/api/autoverification/rule-sets', {
      name: 'Chemistry',
      document: labRules(tests),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().rule_set.id as number;
    expect((await lab.admin.post(`/api/autoverification/rule-sets/${id}/approve`)).statusCode).toBe(200);

    const tp = byName('TP');
    const alb = byName('ALB');
    const glob = byName('Globulin');
    const pool = tests.filter((t) => ![tp.id, alb.id, glob.id].includes(t.id));
    // Previous values first, verified by a person before any rule set is in force.
    const previous = new Map<number, { values: Map<number, number>; failing: boolean }>();
    const patients: { patientId?: number; newborn: boolean; haemolysed: boolean; calc: boolean }[] = [];
    for (let i = 0; i < 300; i++) {
      const newborn = i % 30 === 7;
      const haemolysed = i % 20 === 3;
      patients.push({ newborn, haemolysed, calc: i % 3 === 0 });
    }
    for (let i = 0; i < 300; i += 5) {
      const patientId = await newPatient(lab, { age: 40 });
      patients[i]!.patientId = patientId;
      const failing = i % 10 === 0;
      previous.set(i, { values: await history(patientId, failing), failing });
    }
    const activated = await lab.admin.post(`/api/autoverification/rule-sets/${id}/activate`, { mode: 'live' });
    expect(activated.statusCode, activated.body).toBe(200);
    ruleSet = activated.json().rule_set;

    for (let i = 0; i < 300; i++) {
      const p = patients[i]!;
      const prev = previous.get(i);
      const picks = [...pool].sort(() => rand() - 0.5).slice(0, p.calc ? 4 : 7);
      const chosen = prev ? [...new Set([...DELTA_TESTS.map((n) => byName(n)), ...picks])].slice(0, 7) : picks;
      const ids = [...chosen.map((t) => t.id), ...(p.calc ? [tp.id, alb.id, glob.id] : [])];
      const { sampleOf } = await orderedPatient(lab, tech, ids, {
        age: p.newborn ? 5 : 40,
        age_unit: p.newborn ? 'days' : 'years',
        patientId: p.patientId,
      });
      if (p.haemolysed)
        for (const sid of new Set(sampleOf.values()))
          expect((await tech.put(`/api/samples/${sid}`, { receipt_condition: 'Haemolysed ++' })).statusCode).toBe(200);
      const patientLabel = p.newborn ? 'excluded' : p.haemolysed ? 'interference' : null;
      for (const t of chosen) {
        const sid = sampleOf.get(t.id)!;
        if (t.kind === 'text') {
          labelled.set(await enter(sid, t.id, 'Clear'), patientLabel ?? 'text');
          continue;
        }
        const delta = prev?.values.get(t.id);
        if (delta !== undefined) {
          const label = prev!.failing ? 'delta' : 'normal';
          labelled.set(await enter(sid, t.id, String(delta)), patientLabel ?? label);
          continue;
        }
        const v = valueFor(t);
        labelled.set(await enter(sid, t.id, v.value, v.flag), patientLabel ?? v.label);
      }
      if (p.calc) {
        const albLow = rand() < 0.25;
        const albValue = albLow ? between(3.1, 3.3) : between(3.8, 4.6);
        const globValue = between(2.3, 3.2);
        const sid = sampleOf.get(tp.id)!;
        labelled.set(
          await enter(sid, tp.id, String(Number((albValue + globValue).toFixed(2)))),
          patientLabel ?? 'normal',
        );
        labelled.set(await enter(sid, alb.id, String(albValue)), patientLabel ?? (albLow ? 'abnormal' : 'normal'));
        const calc = await db()
          .selectFrom('test_results')
          .select('id')
          .where('sample_id', '=', sid)
          .where('test_id', '=', glob.id)
          .executeTakeFirstOrThrow();
        labelled.set(calc.id, patientLabel ?? (albLow ? 'calculated_input_held' : 'calculated_ok'));
      }
    }
  }, 900_000);

  it('holds 2,000+ results of 30 tests and 300 patients, every one decided with its reasons', async () => {
    expect(labelled.size).toBeGreaterThanOrEqual(2000);
    expect(tests).toHaveLength(30);
    const decisions = await latestDecisions(db(), lab.organizationId, [...labelled.keys()]);
    expect(decisions.size).toBe(labelled.size);
    for (const d of decisions.values()) {
      const reasons = JSON.parse(d.reasons) as DecisionReason[];
      expect(reasons.length).toBeGreaterThan(0);
      expect(d.version).toBe(ruleSet.version);
      if (d.decision === 'hold') expect(reasons.some((r) => !r.passed && r.text.startsWith('held: '))).toBe(true);
      else expect(reasons.every((r) => r.passed)).toBe(true);
    }
  });

  it('releases at least 80% of the normal chemistry and none of the risky results', async () => {
    const rows = await db()
      .selectFrom('test_results')
      .select(['id', 'status', 'autoverified_by', 'verified_by'])
      .where('id', 'in', [...labelled.keys()])
      .execute();
    const tally = new Map<Label, { n: number; released: number }>();
    for (const r of rows) {
      const label = labelled.get(r.id)!;
      const t = tally.get(label) ?? { n: 0, released: 0 };
      t.n += 1;
      if (r.status === 'verified') {
        t.released += 1;
        expect(r.verified_by).toBeNull();
        expect(r.autoverified_by).toBe(
          `Autoverification rule set v${ruleSet.version} (approved by ${ruleSet.approved_by_name})`,
        );
      }
      tally.set(label, t);
    }
    const normal = tally.get('normal')!;
    console.info('labelled set', Object.fromEntries(tally));
    expect(normal.n).toBeGreaterThan(1000);
    expect(normal.released / normal.n).toBeGreaterThanOrEqual(0.8);
    for (const label of MUST_HOLD) {
      expect(tally.get(label)?.n ?? 0, `${label} present in the set`).toBeGreaterThan(0);
      expect(tally.get(label)!.released, `${label} released`).toBe(0);
    }
    expect(tally.get('calculated_ok')!.released).toBe(tally.get('calculated_ok')!.n);
  });
});

describe('a replayed week in shadow mode, compared with the validator; the stop', () => {
  it('lists would-release-but-held and would-hold-but-released, and a stop holds the next result', async () => {
    const next = await lab.admin.post(`/api/autoverification/rule-sets/${ruleSet.id}/versions`);
    const v2 = next.json().rule_set.id as number;
    expect((await lab.admin.post(`/api/autoverification/rule-sets/${v2}/approve`)).statusCode).toBe(200);
    expect(
      (await lab.admin.post(`/api/autoverification/rule-sets/${v2}/activate`, { mode: 'shadow' })).statusCode,
    ).toBe(200);

    const pool = ['Glucose', 'Sodium', 'Potassium', 'Calcium', 'AST'].map(byName);
    const seen: { id: number; normal: boolean }[] = [];
    for (let day = 0; day < 7; day++)
      for (let k = 0; k < 3; k++) {
        const { sampleOf } = await orderedPatient(
          lab,
          tech,
          pool.map((t) => t.id),
          { age: 30 + day },
        );
        for (const t of pool) {
          const span = t.high - t.low;
          const normal = rand() < 0.8;
          const v = normal
            ? between(t.low + span * 0.2, t.high - span * 0.2)
            : between(t.high + span * 0.1, t.high + span * 0.4);
          seen.push({ id: await enter(sampleOf.get(t.id)!, t.id, String(v)), normal });
        }
      }
    let sentBack = 0;
    let abnormalVerified = 0;
    let agreed = 0;
    for (const [i, r] of seen.entries()) {
      if (r.normal && i % 7 === 0) {
        await rejectResult(db(), validatorActor, r.id, { reason: 'Sample clotted' });
        sentBack += 1;
      } else if (r.normal) {
        await verifyResult(db(), validatorActor, r.id);
        agreed += 1;
      } else if (i % 2 === 0) {
        await verifyResult(db(), validatorActor, r.id);
        abnormalVerified += 1;
      } else {
        await rejectResult(db(), validatorActor, r.id, { reason: 'Repeat' });
        agreed += 1;
      }
    }
    const today = localDate('Asia/Kolkata');
    const res = await lab.admin.get(`/api/autoverification/comparison?from=${today}&to=${today}&rule_set_id=${v2}`);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json<{ comparison: Comparison }>().comparison;
    expect(c.compared).toBe(seen.length);
    expect(c.waiting).toBe(0);
    expect(c.agreed).toBe(agreed);
    const kinds = c.disagreements.map((d) => d.kind);
    expect(kinds.filter((k) => k === 'would_release_held')).toHaveLength(sentBack);
    expect(kinds.filter((k) => k === 'would_hold_released')).toHaveLength(abnormalVerified);
    expect(kinds.indexOf('would_hold_released')).toBe(sentBack);
    expect(sentBack).toBeGreaterThan(0);
    expect(abnormalVerified).toBeGreaterThan(0);

    expect((await lab.admin.post('/api/autoverification/stop', { reason: 'Analyser service' })).statusCode).toBe(200);
    const glucose = byName('Glucose');
    const { sampleOf } = await orderedPatient(lab, tech, [glucose.id], { age: 50 });
    const held = await enter(sampleOf.get(glucose.id)!, glucose.id, '90');
    const d = (await latestDecisions(db(), lab.organizationId, [held])).get(held)!;
    expect(JSON.parse(d.reasons)).toEqual([
      { rule: 'stopped', passed: false, text: expect.stringContaining('Analyser service') },
    ]);
  });
});
