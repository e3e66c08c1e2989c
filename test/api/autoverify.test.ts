import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, pdfText, type Client, type TestLab } from '../helpers.js';
import type { AutoverifyDecision, AutoverifyState, Comparison, RuleSet } from '../../src/shared/schemas/autoverify.js';
import { defaultRuleDocument } from '../../src/shared/schemas/autoverify.js';
import type { TestResult } from '../../src/shared/schemas/results.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import { localDate } from '../../src/shared/time.js';
import { uniqueWord } from './support.js';
import { findConnectionRow } from '../../src/core/interfaces/repository.js';
import { receiveAstmText } from '../../src/core/interfaces/receive.js';

/**
 * Autoverification through the API: a rule set drafted, approved by a user with
 * approve_autoverification, activated in shadow and then in live mode; a normal glucose released
 * by the rules through the manual release (the sample completed, the report naming the rule set
 * version as verifier), an abnormal one held with its reason; the stop switches holding the next
 * result; and the shadow comparison listing what a person did differently.
 */
let lab: TestLab;
let tech: Client;
let validator: Client;
let manager: Client;

beforeAll(async () => {
  lab = await makeLab();
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
  manager = await lab.as('lab_manager');
});
afterAll(() => lab.close());

/** A glucose-like test with one control level that passed an hour ago. */
async function glucose(): Promise<number> {
  const code = uniqueWord('GL').toUpperCase();
  const t = await lab.admin.post('/api/tests', {
    name: `Glucose ${code}`,
    code,
    price: 100,
    unit: 'mg/dL',
    normal_range: '70-110',
    category: 'Biochemistry',
    critical_low: 40,
    critical_high: 450,
  });
  expect(t.statusCode, t.body).toBe(201);
  const testId = t.json().test.id as number;
  const m = await lab.admin.post('/api/qc/materials', {
    name: `Glucose control ${code}`,
    test_id: testId,
    level: 'Level 1',
    target_mean: 100,
    target_sd: 3,
  });
  expect(m.statusCode, m.body).toBe(201);
  const run = await tech.post('/api/qc/runs', {
    test_id: testId,
    values: [{ material_id: m.json().material.id, value: 101 }],
    performed_at: new Date(Date.now() - 3_600_000).toISOString(),
  });
  expect(run.statusCode, run.body).toBe(201);
  return testId;
}

async function collectedSample(testIds: number[]): Promise<number> {
  const p = await lab.admin.post('/api/patients', {
    first_name: 'Auto',
    last_name: uniqueWord(),
    age: 45,
    gender: 'Female',
  });
  const patientId = p.json().patient.id as number;
  const bill = await lab.admin.post('/api/bills', {
    patient_id: patientId,
    items: testIds.map((id) => ({ item_type: 'test', item_id: id })),
  });
  expect(bill.statusCode, bill.body).toBe(201);
  const [s] = (await lab.admin.get(`/api/samples?patient_id=${patientId}`)).json<{ samples: Sample[] }>().samples;
  await tech.post('/api/samples/collect', { ids: [s!.id] });
  return s!.id;
}

async function enter(testId: number, value: string, sampleId?: number): Promise<TestResult> {
  const res = await tech.post('/api/test-results', {
    sample_id: sampleId ?? (await collectedSample([testId])),
    test_id: testId,
    result_value: value,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ result: TestResult }>().result;
}

const decisionsOf = async (id: number) =>
  (await tech.get(`/api/test-results/${id}/autoverification`)).json<{ decisions: AutoverifyDecision[] }>().decisions;

async function approvedRuleSet(name: string): Promise<RuleSet> {
  const created = await validator.post('/api/autoverification/rule-sets', { name });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ rule_set: RuleSet }>().rule_set.id;
  const approved = await manager.post(`/api/autoverification/rule-sets/${id}/approve`);
  expect(approved.statusCode, approved.body).toBe(200);
  return approved.json<{ rule_set: RuleSet }>().rule_set;
}

const activate = (id: number, mode: 'shadow' | 'live') =>
  manager.post(`/api/autoverification/rule-sets/${id}/activate`, { mode });

describe('rule sets are versioned documents', () => {
  it('a draft is edited, approved only with approve_autoverification, and then never changes', async () => {
    const created = await validator.post('/api/autoverification/rule-sets', { name: 'Chemistry' });
    expect(created.statusCode, created.body).toBe(201);
    const rs = created.json<{ rule_set: RuleSet }>().rule_set;
    expect(rs).toMatchObject({ status: 'draft', document: defaultRuleDocument(), approved_by_name: null });

    const doc = { ...defaultRuleDocument(), defaults: { ...defaultRuleDocument().defaults, qc_within_hours: 12 } };
    const edited = await validator.put(`/api/autoverification/rule-sets/${rs.id}`, { document: doc });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().rule_set.document.defaults.qc_within_hours).toBe(12);

    expect((await validator.post(`/api/autoverification/rule-sets/${rs.id}/approve`)).statusCode).toBe(403);
    expect((await activate(rs.id, 'live')).json().code).toBe('RULE_SET_DRAFT');
    const approved = await manager.post(`/api/autoverification/rule-sets/${rs.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().rule_set).toMatchObject({ status: 'approved', approved_by_name: expect.any(String) });

    const change = await validator.put(`/api/autoverification/rule-sets/${rs.id}`, { name: 'Changed' });
    expect(change.statusCode).toBe(409);
    expect(change.json().code).toBe('RULE_SET_APPROVED');

    const next = await validator.post(`/api/autoverification/rule-sets/${rs.id}/versions`);
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().rule_set).toMatchObject({ status: 'draft', version: rs.version + 1, based_on: rs.id });
    expect(next.json().rule_set.document.defaults.qc_within_hours).toBe(12);
  });

  it('refuses a test of another lab or unknown in the document, and activation in the past', async () => {
    const doc = { ...defaultRuleDocument(), tests: [{ test_id: 999_999, enabled: true, conditions: {} }] };
    const res = await validator.post('/api/autoverification/rule-sets', { name: 'Bad', document: doc });
    expect(res.statusCode).toBe(400);
    const rs = await approvedRuleSet('Past');
    const past = await manager.post(`/api/autoverification/rule-sets/${rs.id}/activate`, {
      mode: 'live',
      active_from: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
  });
});

describe('shadow mode decides and releases nothing; the comparison lists the disagreements', () => {
  it('records would-release and would-hold, and compares them with what a person did', async () => {
    const rs = await approvedRuleSet('Shadow week');
    expect((await activate(rs.id, 'shadow')).statusCode).toBe(200);
    const state = (await tech.get('/api/autoverification')).json<{ state: AutoverifyState }>().state;
    expect(state.in_force).toMatchObject({ rule_set_id: rs.id, mode: 'shadow' });

    const testId = await glucose();
    const normalKept = await enter(testId, '95');
    const normalSentBack = await enter(testId, '96');
    const highReleased = await enter(testId, '130');
    const waiting = await enter(testId, '90');
    expect(normalKept.status).toBe('completed');
    const [d] = await decisionsOf(normalKept.id!);
    expect(d).toMatchObject({ mode: 'shadow', decision: 'release', released: false, version: rs.version });
    expect((await decisionsOf(highReleased.id!))[0]!.decision).toBe('hold');

    expect((await validator.put(`/api/test-results/${normalKept.id}/verify`)).statusCode).toBe(200);
    expect(
      (await validator.put(`/api/test-results/${normalSentBack.id}/reject`, { reason: 'Clotted' })).statusCode,
    ).toBe(200);
    expect((await validator.put(`/api/test-results/${highReleased.id}/verify`)).statusCode).toBe(200);

    const today = localDate('Asia/Kolkata');
    const res = await tech.get(`/api/autoverification/comparison?from=${today}&to=${today}&rule_set_id=${rs.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json<{ comparison: Comparison }>().comparison;
    expect(c).toMatchObject({ compared: 3, waiting: 1, would_release: 3, would_hold: 1, agreed: 1, human_verified: 2 });
    expect(c.agreement_percent).toBeCloseTo(33.3, 1);
    expect(c.disagreements.map((x) => [x.result_id, x.kind, x.human])).toEqual([
      [normalSentBack.id, 'would_release_held', 'rejected'],
      [highReleased.id, 'would_hold_released', 'verified'],
    ]);
    expect(c.disagreements[1]!.reasons.find((r) => !r.passed)!.text).toContain('high against the reference range');
    // Who the result belongs to, and what the person did: the reason they sent it back.
    expect(c.disagreements[0]).toMatchObject({
      patient_name: expect.stringMatching(/^Auto /),
      patient_code: expect.any(String),
      rejection_reason: 'Clotted',
    });
    expect(c.disagreements[1]!.rejection_reason).toBeNull();
    expect(waiting.status).toBe('completed');
  });
});

describe('live mode releases through the manual release and names the rule set as verifier', () => {
  let rs: RuleSet;
  let testId: number;
  beforeAll(async () => {
    rs = await approvedRuleSet('Live chemistry');
    expect((await activate(rs.id, 'live')).statusCode).toBe(200);
    testId = await glucose();
  });

  it('a normal glucose is released by itself, the sample completed, the report naming the rule set', async () => {
    const r = await enter(testId, '92');
    expect(r.status).toBe('verified');
    expect(r.verified_by).toBeNull();
    expect(r.verified_by_name).toMatch(new RegExp(`^Autoverification rule set v${rs.version} \\(approved by .+\\)$`));
    const [d] = await decisionsOf(r.id!);
    expect(d).toMatchObject({ mode: 'live', decision: 'release', released: true });
    expect(d!.reasons.every((x) => x.passed)).toBe(true);
    const sample = (await lab.admin.get(`/api/samples/${r.sample_id}`)).json().sample;
    expect(sample.status).toBe('completed');
    const pdf = await lab.admin.get(`/api/samples/${r.sample_id}/report.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf).replace(/\s+/g, ' ')).toContain(`Verified by Autoverification rule set v${rs.version}`);
    const audit = await lab.admin.get(`/api/audit?entity=autoverify_decision&limit=5`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.body).toContain('"decision":"release"');
  });

  it('an abnormal one waits with its reason; a person can still verify it', async () => {
    const r = await enter(testId, '128');
    expect(r.status).toBe('completed');
    const [d] = await decisionsOf(r.id!);
    expect(d!.decision).toBe('hold');
    expect(d!.reasons.filter((x) => !x.passed).map((x) => x.text)).toEqual([
      'held: 128 mg/dL is high against the reference range 70-110',
    ]);
    expect((await validator.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(200);
  });

  it("a queue's page reads each result's latest decision at once; a result never judged has none", async () => {
    const released = await enter(testId, '90');
    const held = await enter(testId, '131');
    // An id the lab has no decision for (here, no result at all) is simply absent.
    const res = await tech.get(`/api/autoverification/decisions?result_ids=${released.id},${held.id},999999`);
    expect(res.statusCode, res.body).toBe(200);
    const byResult = new Map(
      res.json<{ decisions: AutoverifyDecision[] }>().decisions.map((d) => [d.result_id, d] as const),
    );
    expect([...byResult.keys()].sort()).toEqual([released.id, held.id].sort());
    expect(byResult.get(released.id!)).toMatchObject({ decision: 'release', released: true, version: rs.version });
    expect(byResult.get(held.id!)!.reasons.find((x) => !x.passed)!.text).toBe(
      'held: 131 mg/dL is high against the reference range 70-110',
    );
    const bad = await tech.get('/api/autoverification/decisions?result_ids=1,abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toMatch(/^result_ids/);
  });

  it('the lab-wide stop holds the very next result; a test stop holds that test only; resuming needs the approver', async () => {
    const stop = await validator.post('/api/autoverification/stop', { reason: 'Analyser drift' });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().state.stops).toHaveLength(1);
    const held = await enter(testId, '93');
    expect(held.status).toBe('completed');
    expect((await decisionsOf(held.id!))[0]!.reasons).toEqual([
      { rule: 'stopped', passed: false, text: expect.stringContaining('Analyser drift') },
    ]);
    expect((await validator.post('/api/autoverification/resume', {})).statusCode).toBe(403);
    expect((await manager.post('/api/autoverification/resume', {})).statusCode).toBe(200);
    expect((await enter(testId, '94')).status).toBe('verified');

    const other = await glucose();
    expect(
      (await validator.post('/api/autoverification/stop', { test_id: testId, reason: 'Reagent lot' })).statusCode,
    ).toBe(200);
    expect((await enter(testId, '95')).status).toBe('completed');
    expect((await enter(other, '95')).status).toBe('verified');
    expect((await manager.post('/api/autoverification/resume', { test_id: testId })).statusCode).toBe(200);
  });

  it('from an analyzer: a normal glucose releases itself, one the machine flagged waits with the flag as its reason', async () => {
    const conn = await lab.admin.post('/api/connections', {
      name: `Analyser ${uniqueWord()}`,
      protocol: 'astm',
      transport: 'tcp-server',
      port: 9999,
      enabled: false,
      code_map: [{ code: 'GLU', test_id: testId }],
    });
    expect(conn.statusCode, conn.body).toBe(201);
    const row = (await findConnectionRow(lab.database.db, lab.organizationId, conn.json().connection.id))!;
    const plain = await collectedSample([testId]);
    const flagged = await collectedSample([testId]);
    const codeOf = async (id: number) => (await lab.admin.get(`/api/samples/${id}`)).json().sample.sample_id as string;
    const message = (code: string, flag: string) =>
      ['H|\\^&|||Sim^1', 'P|1', `O|1|${code}||^^^GLU|R`, `R|1|^^^GLU|96|mg/dL||${flag}||F`, 'L|1|N'].join('\r');
    await receiveAstmText(lab.database.db, row, message(await codeOf(plain), 'N'));
    await receiveAstmText(lab.database.db, row, message(await codeOf(flagged), 'W'));
    const resultOf = async (sampleId: number) =>
      (await tech.get(`/api/samples/${sampleId}/results`)).json().tests[0].result as TestResult;
    expect((await resultOf(plain)).status).toBe('verified');
    const held = await resultOf(flagged);
    expect(held.status).toBe('completed');
    expect((await decisionsOf(held.id!))[0]!.reasons.filter((r) => !r.passed).map((r) => r.text)).toEqual([
      'held: the analyzer flagged it "W"',
    ]);
  });

  it('an amended autoverified result keeps the rule set as its earlier verifier and waits for a person', async () => {
    const r = await enter(testId, '91');
    expect(r.status).toBe('verified');
    const amended = await tech.put(`/api/test-results/${r.id}`, { result_value: '99', reason: 'Transcription' });
    expect(amended.statusCode, amended.body).toBe(200);
    const after = (await tech.get(`/api/test-results/${r.id}`)).json<{ result: TestResult }>().result;
    expect(after.status).toBe('completed');
    expect(after.autoverified_by).toBeNull();
    expect(after.amendments![0]!.old_verified_by_name).toMatch(/^Autoverification rule set v/);
    const decisions = await decisionsOf(r.id!);
    expect(decisions.at(-1)!.reasons.find((x) => !x.passed)!.rule).toBe('amended');
  });
});
