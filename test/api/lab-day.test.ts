import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { loadStarterCatalogue } from '../../src/core/catalogue/starter.js';
import type { BulkVerifyResponse, ResultSheet, TestResult } from '../../src/shared/schemas/results.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import type { AuditLog } from '../../src/shared/schemas/audit.js';
import { uniqueWord } from './support.js';

/**
 * The lab's day end to end on the starter catalogue: a bill orders its
 * tubes, tubes are collected in one action, calculated tests fill in, the server refuses values that
 * do not fit, bulk validation holds back what needs a closer look, a critical value gates the
 * report until its call is logged, the reported time stays fixed across reprints.
 */
let lab: TestLab;
let tech: Client;
let validator: Client;
const ids = new Map<string, number>();
const profiles = new Map<string, number>();

const id = (code: string) => ids.get(code)!;

beforeAll(async () => {
  lab = await makeLab();
  await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
    tests: true,
    profiles: true,
    packages: true,
  });
  for (const t of (await lab.admin.get('/api/tests')).json<{ tests: { id: number; code: string }[] }>().tests)
    ids.set(t.code, t.id);
  for (const p of (await lab.admin.get('/api/test-profiles')).json<{ profiles: { id: number; code: string }[] }>()
    .profiles)
    profiles.set(p.code, p.id);
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function patient(first = 'Ramesh'): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: first,
    last_name: uniqueWord('Ku'),
    date_of_birth: '1975-05-05',
    gender: 'Male',
    phone: '9876512345',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient.id;
}

async function bill(patientId: number, items: { item_type: string; item_id: number }[], extra = {}) {
  const res = await lab.admin.post('/api/bills', { patient_id: patientId, items, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bill as { id: number; bill_number: string };
}

async function samplesOf(patientId: number): Promise<Sample[]> {
  return (await lab.admin.get(`/api/samples?patient_id=${patientId}`)).json<{ samples: Sample[] }>().samples;
}

async function enter(sampleId: number, code: string, value: string) {
  const res = await tech.post('/api/test-results', { sample_id: sampleId, test_id: id(code), result_value: value });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ result: TestResult }>().result;
}

async function sheet(sampleId: number): Promise<ResultSheet> {
  return (await tech.get(`/api/samples/${sampleId}/results`)).json<ResultSheet>();
}

const valueOf = (s: ResultSheet, code: string) => s.tests.find((t) => t.test_code === code)?.result?.result_value;

async function pdfText(res: { rawPayload: Buffer }): Promise<string> {
  const file = join(tempDir(), 'r.pdf');
  writeFileSync(file, res.rawPayload);
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

describe('a bill orders its tubes', () => {
  it('a Lipid Profile and a CBC make two pending tubes (serum, EDTA) with their tests and barcodes', async () => {
    const p = await patient();
    const b = await bill(p, [
      { item_type: 'profile', item_id: profiles.get('LIPID')! },
      { item_type: 'profile', item_id: profiles.get('CBC')! },
    ]);
    const samples = await samplesOf(p);
    expect(samples.map((s) => [s.container, s.status, s.bill_id, s.sample_type]).sort()).toEqual([
      ['edta', 'pending', b.id, 'Blood'],
      ['serum', 'pending', b.id, 'Blood'],
    ]);
    const serum = samples.find((s) => s.container === 'serum')!;
    expect(serum.tests.map((t) => t.code)).toEqual(['CHOL', 'TG', 'HDL', 'LDL', 'VLDL', 'NONHDL', 'CHOLHDL', 'LDLHDL']);
    expect(samples.every((s) => s.barcode && s.bill_number === b.bill_number)).toBe(true);
    // The "to collect" list is the pending samples.
    const pending = (await lab.admin.get(`/api/samples?status=pending&patient_id=${p}`)).json<{ total: number }>();
    expect(pending.total).toBe(2);
  });

  it('a package expands into its profiles and tests, each test once, grouped by tube', async () => {
    const p = await patient();
    const pkgs = (await lab.admin.get('/api/test-packages')).json<{ packages: { id: number; code: string }[] }>()
      .packages;
    await bill(
      p,
      [
        { item_type: 'package', item_id: pkgs.find((x) => x.code === 'PKG-DIAB')!.id },
        { item_type: 'test', item_id: id('FBS') },
        // FBS is in the package too: charged twice only when confirmed, and still one test on the tube.
      ],
      { confirm_duplicates: true },
    );
    const byTube = Object.fromEntries((await samplesOf(p)).map((s) => [s.container, s.tests.map((t) => t.code)]));
    expect(Object.keys(byTube).sort()).toEqual(['edta', 'fluoride', 'serum', 'urine']);
    expect(byTube.fluoride).toEqual(['FBS', 'PPBS']);
    expect(byTube.urine).toEqual(['UMA', 'URM']);
  });

  it('cancelling the bill withdraws the tubes not drawn yet; drawn ones stay', async () => {
    const p = await patient();
    const b = await bill(p, [
      { item_type: 'test', item_id: id('HB') },
      { item_type: 'test', item_id: id('FBS') },
    ]);
    const [first] = await samplesOf(p);
    expect((await tech.post('/api/samples/collect', { ids: [first!.id] })).statusCode).toBe(200);
    const res = await lab.admin.put(`/api/bills/${b.id}`, { status: 'cancelled', cancel_reason: 'Wrong patient' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await samplesOf(p)).map((s) => s.id)).toEqual([first!.id]);
  });
});

describe('collect, enter, calculate, validate, report', () => {
  let p: number;
  let serum: Sample;
  let edta: Sample;

  beforeAll(async () => {
    p = await patient();
    await bill(p, [
      { item_type: 'profile', item_id: profiles.get('LIPID')! },
      { item_type: 'test', item_id: id('HB') },
      { item_type: 'test', item_id: id('K') },
    ]);
    const samples = await samplesOf(p);
    serum = samples.find((s) => s.container === 'serum')!;
    edta = samples.find((s) => s.container === 'edta')!;
  });

  it('collects both tubes in one action', async () => {
    const res = await tech.post('/api/samples/collect', { ids: [serum.id, edta.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ samples: Sample[] }>().samples.map((s) => s.status)).toEqual(['collected', 'collected']);
    const again = await tech.post('/api/samples/collect', { ids: [serum.id] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('collected, not waiting');
  });

  it('refuses values that do not fit the test, naming the field', async () => {
    const cases: [string, string, RegExp][] = [
      ['HB', 'abc', /Haemoglobin is a number in g\/dL; "abc" is not a number/],
      ['HB', '150', /outside what is possible \(1 to 25 g\/dL\)/],
      ['LDL', '120', /LDL Cholesterol is calculated/],
    ];
    for (const [code, value, message] of cases) {
      const s = code === 'HB' ? edta : serum;
      const res = await tech.post('/api/test-results', { sample_id: s.id, test_id: id(code), result_value: value });
      expect(res.statusCode, `${code} ${value}`).toBe(400);
      expect(res.json().details[0].path).toBe('result_value');
      expect(res.json().details[0].message).toMatch(message);
    }
  });

  it('works out LDL, VLDL, non-HDL and the ratios from the entered lipids, and again when one changes', async () => {
    await enter(serum.id, 'CHOL', '220');
    await enter(serum.id, 'HDL', '45');
    let s = await sheet(serum.id);
    expect(valueOf(s, 'NONHDL')).toBe('175');
    expect(valueOf(s, 'LDL')).toBeUndefined(); // waits for TG
    await enter(serum.id, 'TG', '150');
    s = await sheet(serum.id);
    expect(['LDL', 'VLDL', 'NONHDL', 'CHOLHDL', 'LDLHDL'].map((c) => valueOf(s, c))).toEqual([
      '145',
      '30',
      '175',
      '4.9',
      '3.2',
    ]);
    const ldl = s.tests.find((t) => t.test_code === 'LDL')!;
    expect(ldl.result_type).toBe('calculated');
    expect(ldl.result?.calculated).toBe(true);
    expect(ldl.result?.flag).toBe('high');
    const tg = s.tests.find((t) => t.test_code === 'TG')!.result!;
    const changed = await tech.put(`/api/test-results/${tg.id}`, { result_value: '100' });
    expect(changed.statusCode, changed.body).toBe(200);
    s = await sheet(serum.id);
    expect([valueOf(s, 'LDL'), valueOf(s, 'VLDL')]).toEqual(['155', '20']);
  });

  it('Friedewald does not apply above TG 400: LDL is then measured and typed in', async () => {
    const q = await patient();
    await bill(q, [{ item_type: 'profile', item_id: profiles.get('LIPID')! }]);
    const [s] = await samplesOf(q);
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    await enter(s!.id, 'CHOL', '300');
    await enter(s!.id, 'HDL', '40');
    await enter(s!.id, 'TG', '450');
    const sh = await sheet(s!.id);
    expect(valueOf(sh, 'LDL')).toBeUndefined();
    expect(valueOf(sh, 'VLDL')).toBeUndefined();
    expect((await enter(s!.id, 'LDL', '190')).calculated).toBe(false);
  });

  it('bulk validation verifies the normal ones and holds back the abnormal and the critical', async () => {
    const hb = await enter(edta.id, 'HB', '14.26');
    // Kept as typed: the test's one decimal formats only values lims computes.
    expect(hb.result_value).toBe('14.26');
    const k = await enter(serum.id, 'K', '6.8');
    expect(k.is_critical).toBe(true);
    expect(k.review_reasons).toEqual(['abnormal', 'critical']);
    const hdl = (await sheet(serum.id)).tests.find((t) => t.test_code === 'HDL')!.result!;
    const chol = (await sheet(serum.id)).tests.find((t) => t.test_code === 'CHOL')!.result!;
    const res = await validator.post('/api/test-results/bulk-verify', { ids: [hb.id, hdl.id, chol.id, k.id] });
    const out = res.json<BulkVerifyResponse>();
    expect(out.verified).toBe(2);
    const refused = out.outcomes.filter((o) => !o.ok);
    expect(refused.map((o) => [o.id, o.status])).toEqual([
      [chol.id, 409],
      [k.id, 409],
    ]);
    expect(refused[1]!.message).toContain('Potassium 6.8 mEq/L) is outside the reference range, critical');
    // One by one, it can be verified.
    expect((await validator.put(`/api/test-results/${chol.id}/verify`)).statusCode).toBe(200);
  });

  it('a critical value gates the report until its call is logged with read-back', async () => {
    const k = (await sheet(serum.id)).tests.find((t) => t.test_code === 'K')!.result!;
    expect((await validator.put(`/api/test-results/${k.id}/verify`)).statusCode).toBe(200);
    const held = await lab.admin.get(`/api/samples/${serum.id}/report.pdf`);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toContain('Potassium 6.8 mEq/L must be telephoned');
    const uncalled = (await lab.admin.get('/api/test-results?critical_call=pending')).json<{ results: TestResult[] }>();
    expect(uncalled.results.map((r) => r.id)).toContain(k.id);
    const noReadBack = await tech.post(`/api/test-results/${k.id}/critical-call`, {
      called_to: 'Dr. Rao (referring)',
      read_back: false,
    });
    expect(noReadBack.statusCode).toBe(400);
    expect(noReadBack.json().details[0].path).toBe('read_back');
    const call = await tech.post(`/api/test-results/${k.id}/critical-call`, {
      called_to: 'Dr. Rao (referring)',
      read_back: true,
    });
    expect(call.statusCode, call.body).toBe(201);
    expect(call.json<{ result: TestResult }>().result.critical_call).toMatchObject({
      called_to: 'Dr. Rao (referring)',
      read_back: true,
    });
    expect((await lab.admin.get(`/api/samples/${serum.id}/report.pdf`)).statusCode).toBe(200);
  });

  it('the sample completes by itself when all is verified; the Reported time stays across reprints', async () => {
    const s = await sheet(serum.id);
    const open = s.tests.filter((t) => t.result?.status === 'completed').map((t) => t.result!.id!);
    for (const rid of open) expect((await validator.put(`/api/test-results/${rid}/verify`)).statusCode).toBe(200);
    const done = (await lab.admin.get(`/api/samples/${serum.id}`)).json<{ sample: Sample }>().sample;
    expect(done.status).toBe('completed');
    expect(done.reported_at).toBeTruthy();
    expect(done.history?.at(-1)).toMatchObject({ to_status: 'completed', notes: 'All results verified' });
    const first = await pdfText(await lab.admin.get(`/api/samples/${serum.id}/report.pdf`));
    await new Promise((r) => setTimeout(r, 1100));
    const second = await pdfText(await lab.admin.get(`/api/samples/${serum.id}/report.pdf`));
    const reported = (t: string) => /Reported\s+(\S+ \S+)/.exec(t)?.[1];
    expect(reported(first)).toBeTruthy();
    expect(reported(second)).toBe(reported(first));
    expect(second).toMatch(/reprint \d/);
    const after = (await lab.admin.get(`/api/samples/${serum.id}`)).json<{ sample: Sample }>().sample;
    expect(after.report_print_count).toBeGreaterThanOrEqual(3);
  });
});

describe('delta check', () => {
  it('flags a value far from the patient\u2019s previous one and keeps it out of bulk validation', async () => {
    const p = await patient();
    const run = async (value: string) => {
      await bill(p, [{ item_type: 'test', item_id: id('HB') }]);
      const s = (await samplesOf(p)).find((x) => x.status === 'pending')!;
      await tech.post('/api/samples/collect', { ids: [s.id] });
      return enter(s.id, 'HB', value);
    };
    const first = await run('13.0');
    expect((await validator.put(`/api/test-results/${first.id}/verify`)).statusCode).toBe(200);
    const second = await run('14.0');
    expect(second).toMatchObject({ delta_failed: false, previous_value: '13.0' });
    expect((await validator.put(`/api/test-results/${second.id}/verify`)).statusCode).toBe(200);
    const third = await run('9.5');
    expect(third).toMatchObject({ delta_failed: true, previous_value: '14.0', review_reasons: ['abnormal', 'delta'] });
    const bulk = (
      await validator.post('/api/test-results/bulk-verify', { ids: [third.id] })
    ).json<BulkVerifyResponse>();
    expect(bulk.outcomes[0]!.message).toContain('differs from the previous result beyond the delta limit');
  });
});

describe('the catalogue knows result types', () => {
  it('refuses a choice test without choices and a formula naming unknown tests', async () => {
    const choice = await lab.admin.post('/api/tests', { name: 'X', code: 'XCH', price: 10, result_type: 'choice' });
    expect(choice.statusCode).toBe(400);
    expect(choice.json().details[0].path).toBe('choices');
    const formula = await lab.admin.post('/api/tests', {
      name: 'Y',
      code: 'YCALC',
      price: 10,
      result_type: 'calculated',
      formula: 'CHOL - NOPE',
    });
    expect(formula.statusCode).toBe(400);
    expect(formula.json().details[0].message).toContain('Unknown test code(s) in the formula: NOPE');
    const broken = await lab.admin.post('/api/tests', { name: 'Z', code: 'ZC', price: 10, formula: 'CHOL -' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().details[0].path).toBe('formula');
  });

  it('a choice result takes only its choices, in their own spelling', async () => {
    const p = await patient();
    await bill(p, [{ item_type: 'test', item_id: id('HIV') }]);
    const [s] = await samplesOf(p);
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const bad = await tech.post('/api/test-results', { sample_id: s!.id, test_id: id('HIV'), result_value: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].message).toContain('must be one of: Non-reactive, Reactive');
    const ok = await enter(s!.id, 'HIV', 'reactive');
    expect([ok.result_value, ok.flag]).toEqual(['Reactive', 'abnormal']);
  });
});

describe('search finds what staff type', () => {
  it.each([
    ['glucose', ['FBS', 'PPBS', 'RBS']],
    ['sugar', ['FBS', 'PPBS', 'RBS']],
    ['hemoglobin', ['HB']],
    ['Hb', ['HB']],
    ['SGPT', ['SGPT']],
    ['alt', ['SGPT']],
  ])('tests: "%s"', async (q, codes) => {
    const found = (await lab.admin.get(`/api/tests?search=${encodeURIComponent(q)}`)).json<{
      tests: { code: string }[];
    }>().tests;
    expect(found.map((t) => t.code)).toEqual(expect.arrayContaining(codes));
  });

  it.each([
    ['CBC', 'CBC'],
    ['complete blood count', 'CBC'],
    ['LFT', 'LFT'],
    ['kidney', 'KFT'],
    ['RFT', 'KFT'],
  ])('profiles: "%s"', async (q, code) => {
    const found = (await lab.admin.get(`/api/test-profiles?search=${encodeURIComponent(q)}`)).json<{
      profiles: { code: string }[];
    }>().profiles;
    expect(found.map((p) => p.code)).toContain(code);
  });
});

describe('doctors see their own patients', () => {
  it('a doctor reads results of patients they referred, and not of others (404)', async () => {
    const mk = async (email: string) =>
      (
        await lab.admin.post('/api/users', {
          first_name: 'Doc',
          last_name: uniqueWord('Dr'),
          email,
          role: 'doctor',
          password: 'longpassword1',
        })
      ).json().user.id as number;
    const mine = await mk(`mine.${Date.now()}@lab.test`);
    await mk(`other.${Date.now()}@lab.test`);
    const p = await patient('Scoped');
    await bill(p, [{ item_type: 'test', item_id: id('HB') }], { doctor_id: mine });
    const [s] = await samplesOf(p);
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const r = await enter(s!.id, 'HB', '13.1');
    const q = await patient('Unscoped');
    await bill(q, [{ item_type: 'test', item_id: id('HB') }]);
    const [s2] = await samplesOf(q);
    await tech.post('/api/samples/collect', { ids: [s2!.id] });
    const r2 = await enter(s2!.id, 'HB', '13.2');

    const doctorClient = async (userId: number) => {
      const row = await lab.database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const res = await lab.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: row.email, password: 'longpassword1' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    };
    const cookie = await doctorClient(mine);
    const get = (url: string) => lab.app.inject({ method: 'GET', url, headers: { cookie } });
    expect((await get(`/api/test-results/${r.id}`)).statusCode).toBe(200);
    expect((await get(`/api/test-results/${r2.id}`)).statusCode).toBe(404);
    expect((await get(`/api/samples/${s2!.id}/results`)).statusCode).toBe(404);
    expect((await get(`/api/patients/${q}/history`)).statusCode).toBe(404);
    expect((await get(`/api/patients/${p}/history`)).statusCode).toBe(200);
    const listed = (await get('/api/test-results?entered=true&limit=100')).json<{ results: TestResult[] }>().results;
    expect(listed.map((x) => x.patient_id)).toEqual([p]);
    // The lab may let doctors see everyone.
    await lab.database.db
      .updateTable('organizations')
      .set({ settings: JSON.stringify({ doctorsSeeAllPatients: true }) })
      .where('id', '=', lab.organizationId)
      .execute();
    expect((await get(`/api/test-results/${r2.id}`)).statusCode).toBe(200);
    await lab.database.db
      .updateTable('organizations')
      .set({ settings: '{}' })
      .where('id', '=', lab.organizationId)
      .execute();
  });
});

describe('reports held until the bill is paid (when the lab says so)', () => {
  it('holds a report with money due, and releases it with a reason', async () => {
    const p = await patient();
    await bill(p, [{ item_type: 'test', item_id: id('HB') }]);
    const [s] = await samplesOf(p);
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const r = await enter(s!.id, 'HB', '13.3');
    await validator.put(`/api/test-results/${r.id}/verify`);
    await lab.database.db
      .updateTable('organizations')
      .set({ settings: JSON.stringify({ holdReportsUntilPaid: true }) })
      .where('id', '=', lab.organizationId)
      .execute();
    try {
      const status = (await lab.admin.get(`/api/samples/${s!.id}/report/status`)).json();
      expect(status).toMatchObject({ releasable: false, code: 'REPORT_HELD_UNPAID' });
      const held = await lab.admin.get(`/api/samples/${s!.id}/report.pdf`);
      expect(held.statusCode).toBe(409);
      expect(held.json().message).toMatch(/is held: bill .* has ₹[\d,.]+ due/);
      const noReason = await validator.post(`/api/samples/${s!.id}/report/release`, {});
      expect(noReason.statusCode).toBe(400);
      expect(
        (await validator.post(`/api/samples/${s!.id}/report/release`, { reason: 'Corporate client, monthly credit' }))
          .statusCode,
      ).toBe(200);
      expect((await lab.admin.get(`/api/samples/${s!.id}/report.pdf`)).statusCode).toBe(200);
      expect((await lab.admin.get(`/api/samples/${s!.id}/report/status`)).json().releasable).toBe(true);
    } finally {
      await lab.database.db
        .updateTable('organizations')
        .set({ settings: '{}' })
        .where('id', '=', lab.organizationId)
        .execute();
    }
  });
});

describe('audit rows say what they are about', () => {
  it('names the test and the patient of a result row', async () => {
    const logs = (await lab.admin.get('/api/audit?entity=test_result&limit=5')).json<{ logs: AuditLog[] }>().logs;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.some((l) => /^[A-Z0-9]+ .+ · .+ \(.+\) · SMP\d+$/.test(l.subject ?? ''))).toBe(true);
  });
});

describe('who may log a critical call', () => {
  it('a doctor (reads results, neither enters nor verifies) is refused', async () => {
    const k = (await lab.admin.get('/api/test-results?critical=true&limit=1')).json<{ results: TestResult[] }>()
      .results[0]!;
    const doctor = await lab.as('doctor');
    const res = await doctor.post(`/api/test-results/${k.id}/critical-call`, { called_to: 'x', read_back: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('Only staff who enter or verify results');
  });
});

describe('portal PIN on the bill slip, and the portal shows the lab', () => {
  it('prints a new PIN with the portal address on the slip; the patient signs in with it', async () => {
    const p = await patient('Portal');
    const b = await bill(p, [{ item_type: 'test', item_id: id('HB') }]);
    const res = await lab.admin.get(`/api/bills/${b.id}/pdf?portal_pin=1`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const text = await pdfText(res);
    const pin = /PIN (\d{6})/.exec(text.replace(/\s+/g, ' '))?.[1];
    expect(text).toMatch(/Patient portal: http:\/\/[^\s]+\/patient-portal/);
    expect(pin).toBeTruthy();
    const patientCode = (await lab.admin.get(`/api/patients/${p}`)).json().patient.patient_id as string;
    const login = await lab.app.inject({
      method: 'POST',
      url: '/api/portal/login',
      headers: { origin: 'http://localhost' },
      payload: { patient_id: patientCode, mobile: '9876512345', pin },
    });
    expect(login.statusCode, login.body).toBe(200);
    // Only staff who manage patients may issue a PIN.
    const tech2 = await lab.as('lab_technician');
    expect((await tech2.get(`/api/bills/${b.id}/pdf?portal_pin=1`)).statusCode).toBe(403);
    const labInfo = await lab.app.inject({ method: 'GET', url: '/api/portal/lab' });
    expect(labInfo.json()).toMatchObject({ name: 'Test Lab' });
  });
});

describe('validate a sample as a unit', () => {
  it('verifies the results shown, abnormal ones included, and refuses another sample\u2019s result', async () => {
    const p = await patient('Unit');
    await bill(p, [
      { item_type: 'test', item_id: id('HB') },
      { item_type: 'test', item_id: id('PLT') },
    ]);
    const [s] = await samplesOf(p);
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const hb = await enter(s!.id, 'HB', '9.1');
    const plt = await enter(s!.id, 'PLT', '2.5');
    expect(hb.review_reasons).toContain('abnormal');
    const other = (await lab.admin.get('/api/test-results?status=completed&limit=1'))
      .json<{ results: TestResult[] }>()
      .results.find((r) => r.sample_id !== s!.id);
    const ids = [hb.id!, plt.id!, ...(other ? [other.id!] : [])];
    const out = (await validator.post(`/api/samples/${s!.id}/verify`, { ids })).json<BulkVerifyResponse>();
    expect(out.verified).toBe(2);
    if (other) expect(out.outcomes.at(-1)).toMatchObject({ ok: false, status: 409 });
    const done = (await lab.admin.get(`/api/samples/${s!.id}`)).json<{ sample: Sample }>().sample;
    expect(done.status).toBe('completed');
  });

  it('a logged call says how many minutes after entry it was made', async () => {
    const k = (await lab.admin.get('/api/test-results?critical_call=logged')).json<{ results: TestResult[] }>()
      .results[0]!;
    expect(k.critical_call?.minutes_to_call).toBeGreaterThanOrEqual(0);
  });
});

describe('a referring doctor is not a consultation', () => {
  it('a lab-only bill may name the referring doctor: no fee, and the report says who referred', async () => {
    const doc = await lab.admin.post('/api/users', {
      first_name: 'Anil',
      last_name: 'Rao',
      email: `anil.${Date.now()}@lab.test`,
      role: 'doctor',
      password: 'longpassword1',
      consultation_fee: 500,
    });
    expect(doc.statusCode, doc.body).toBe(201);
    const p = await patient('Referred');
    const res = await lab.admin.post('/api/bills', {
      patient_id: p,
      doctor_id: doc.json().user.id,
      visit_type: 'lab_only',
      items: [{ item_type: 'test', item_id: id('HB') }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().bill).toMatchObject({
      visit_type: 'lab_only',
      consultation_fee: 0,
      doctor_id: doc.json().user.id,
    });
    const [s] = await samplesOf(p);
    await tech.post('/api/samples/collect', { ids: [s!.id] });
    const r = await enter(s!.id, 'HB', '13.4');
    await validator.put(`/api/test-results/${r.id}/verify`);
    expect(await pdfText(await lab.admin.get(`/api/samples/${s!.id}/report.pdf`))).toContain('Dr. Anil Rao');
    const noDoctor = await lab.admin.post('/api/bills', {
      patient_id: p,
      visit_type: 'doctor_visit',
      items: [{ item_type: 'test', item_id: id('HB') }],
    });
    expect(noDoctor.statusCode).toBe(400);
    expect(noDoctor.json().details[0].path).toBe('doctor_id');
  });
});
