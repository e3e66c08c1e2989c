import { expect } from 'vitest';
import type { Client, TestLab } from '../helpers.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { defaultRuleDocument, type RuleDocument } from '../../src/shared/schemas/autoverify.js';
import { uniqueWord } from './support.js';

/**
 * The labelled set's catalogue and patients, built through the API: 30 tests (chemistry with
 * reference, critical and reportable ranges; two whose QC was rejected; one whose QC is stale; a
 * calculated globulin; a haematology test; a text test) and the lab's rules for them.
 */

export type Kind = 'chemistry' | 'qc_failed' | 'qc_stale' | 'calculated' | 'text';

export interface LabTest {
  id: number;
  code: string;
  name: string;
  kind: Kind;
  department: string;
  low: number;
  high: number;
  /** The lab's analytical measurement range (in the rule set). */
  amrHigh: number;
}

/** name, unit, reference low, high; the last two have a rejected QC run. */
const CHEMISTRY: [string, number, number][] = [
  ['Glucose', 70, 110],
  ['Urea', 15, 40],
  ['Creatinine', 0.6, 1.2],
  ['Sodium', 135, 145],
  ['Potassium', 3.5, 5.1],
  ['Chloride', 98, 107],
  ['Calcium', 8.5, 10.5],
  ['Phosphorus', 2.5, 4.5],
  ['Uric acid', 3.5, 7.2],
  ['Cholesterol', 120, 200],
  ['Triglycerides', 50, 150],
  ['HDL', 40, 60],
  ['Bilirubin total', 0.3, 1.2],
  ['Bilirubin direct', 0.05, 0.3],
  ['AST', 10, 40],
  ['ALT', 7, 56],
  ['ALP', 44, 147],
  ['GGT', 9, 48],
  ['Amylase', 30, 110],
  ['Lipase', 10, 140],
  ['Magnesium', 1.7, 2.2],
  ['Iron', 60, 170],
  ['TP', 6, 8.3],
  ['ALB', 3.5, 5],
  ['CK', 30, 200],
  ['LDH', 140, 280],
];

const round = (n: number) => Number(n.toPrecision(4));

async function addTest(
  lab: TestLab,
  tech: Client,
  spec: { name: string; low: number; high: number; kind: Kind; department: string; formula?: string },
): Promise<LabTest> {
  const code = uniqueWord(spec.name.replace(/\W/g, '').slice(0, 4)).toUpperCase();
  const span = spec.high - spec.low;
  const numeric = spec.kind !== 'text';
  const res = await lab.admin.post('/api/tests', {
    name: `${spec.name} ${code}`,
    code,
    price: 100,
    unit: numeric ? 'u' : null,
    normal_range: numeric ? `${spec.low}-${spec.high}` : 'Clear',
    category: spec.department,
    result_type: spec.kind === 'calculated' ? 'calculated' : numeric ? 'numeric' : 'text',
    formula: spec.formula,
    ...(numeric
      ? {
          plausible_low: 0,
          plausible_high: round(spec.high + span * 10),
          critical_low: spec.low - span * 0.8 > 0 ? round(spec.low - span * 0.8) : undefined,
          critical_high: round(spec.high + span * 1.5),
        }
      : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().test.id as number;
  if (spec.kind !== 'calculated' && spec.kind !== 'text') {
    const m = await lab.admin.post('/api/qc/materials', {
      name: `${spec.name} control`,
      test_id: id,
      level: 'Level 1',
      target_mean: 100,
      target_sd: 2,
    });
    expect(m.statusCode, m.body).toBe(201);
    const hoursAgo = spec.kind === 'qc_stale' ? 72 : 1;
    const run = await tech.post('/api/qc/runs', {
      test_id: id,
      values: [{ material_id: m.json().material.id, value: spec.kind === 'qc_failed' ? 110 : 100.5 }],
      performed_at: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
    });
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json().status).toBe(spec.kind === 'qc_failed' ? 'failed' : 'passed');
  }
  return {
    id,
    code,
    name: `${spec.name} ${code}`,
    kind: spec.kind,
    department: spec.department,
    low: spec.low,
    high: spec.high,
    amrHigh: round(spec.high + span * 3),
  };
}

export async function buildCatalogue(lab: TestLab, tech: Client): Promise<LabTest[]> {
  const tests: LabTest[] = [];
  for (const [name, low, high] of CHEMISTRY) {
    const kind: Kind = name === 'CK' || name === 'LDH' ? 'qc_failed' : 'chemistry';
    tests.push(await addTest(lab, tech, { name, low, high, kind, department: 'Biochemistry' }));
  }
  const tp = tests.find((t) => t.name.startsWith('TP '))!;
  const alb = tests.find((t) => t.name.startsWith('ALB '))!;
  tests.push(
    await addTest(lab, tech, {
      name: 'Globulin',
      low: 2,
      high: 3.5,
      kind: 'calculated',
      department: 'Biochemistry',
      formula: `${tp.code} - ${alb.code}`,
    }),
  );
  tests.push(
    await addTest(lab, tech, { name: 'Ammonia', low: 15, high: 45, kind: 'qc_stale', department: 'Biochemistry' }),
  );
  tests.push(
    await addTest(lab, tech, { name: 'Haemoglobin', low: 12, high: 16, kind: 'chemistry', department: 'Haematology' }),
  );
  tests.push(
    await addTest(lab, tech, {
      name: 'Urine appearance',
      low: 0,
      high: 0,
      kind: 'text',
      department: 'Clinical pathology',
    }),
  );
  expect(tests).toHaveLength(30);
  return tests;
}

/** The lab's rules: the defaults, a 25% delta, each test's measurement range, total >= direct bilirubin. */
export function labRules(tests: LabTest[]): RuleDocument {
  const doc = defaultRuleDocument();
  doc.defaults.delta = { kind: 'percent', limit: 25 };
  doc.tests = tests
    .filter((t) => t.kind !== 'text')
    .map((t) => ({ test_id: t.id, enabled: true, conditions: { reportable_limits: { low: 0, high: t.amrHigh } } }));
  const tbil = tests.find((t) => t.name.startsWith('Bilirubin total'))!;
  const dbil = tests.find((t) => t.name.startsWith('Bilirubin direct'))!;
  doc.consistency = [{ label: 'Total >= direct bilirubin', left_test_id: tbil.id, op: '>=', right_test_id: dbil.id }];
  return doc;
}

export async function newPatient(lab: TestLab, patient: { age: number; age_unit?: 'years' | 'days' }): Promise<number> {
  const p = await lab.admin.post('/api/patients', {
    first_name: 'Label',
    last_name: uniqueWord(),
    age: patient.age,
    age_unit: patient.age_unit ?? 'years',
    gender: 'Male',
  });
  expect(p.statusCode, p.body).toBe(201);
  return p.json().patient.id as number;
}

/** A patient with a bill of these tests, its samples collected; answers each test's sample id. */
export async function orderedPatient(
  lab: TestLab,
  tech: Client,
  testIds: number[],
  patient: { age: number; age_unit?: 'years' | 'days'; patientId?: number },
): Promise<{ patientId: number; sampleOf: Map<number, number> }> {
  const patientId = patient.patientId ?? (await newPatient(lab, patient));
  const bill = await lab.admin.post('/api/bills', {
    patient_id: patientId,
    items: testIds.map((id) => ({ item_type: 'test', item_id: id })),
  });
  expect(bill.statusCode, bill.body).toBe(201);
  const billId = bill.json().bill.id as number;
  const samples = (await lab.admin.get(`/api/samples?patient_id=${patientId}&limit=100`))
    .json<{ samples: (Sample & { bill_id: number | null })[] }>()
    .samples.filter((s) => s.bill_id === billId);
  const collect = await tech.post('/api/samples/collect', { ids: samples.map((s) => s.id) });
  expect(collect.statusCode, collect.body).toBe(200);
  const sampleOf = new Map<number, number>();
  for (const s of samples) for (const t of s.tests) sampleOf.set(t.id, s.id);
  return { patientId, sampleOf };
}

/** A seeded generator, so the labelled set is the same on every run. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
