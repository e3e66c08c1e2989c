import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { localDate } from '../../src/shared/time.js';
import { addDays } from '../../src/shared/time.js';
import type { QcMaterial, QcRun, QcSummary } from '../../src/shared/schemas/qc.js';
import { uniqueWord } from './support.js';

let lab: TestLab;
let glucoseId: number;

beforeAll(async () => {
  lab = await makeLab();
  const res = await lab.admin.post('/api/tests', { name: 'Glucose Fasting', code: 'GLUF', price: 120, unit: 'mg/dL' });
  expect(res.statusCode, res.body).toBe(201);
  glucoseId = res.json().test.id;
});
afterAll(() => lab.close());

const today = () => localDate('Asia/Kolkata');

async function addMaterial(as: Client, body: Record<string, unknown> = {}): Promise<QcMaterial> {
  const res = await as.post('/api/qc/materials', {
    name: `Control ${uniqueWord()}`,
    test_id: glucoseId,
    level: `Level ${uniqueWord()}`,
    target_mean: 100,
    target_sd: 2,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ material: QcMaterial }>().material;
}

async function run(as: Client, materialId: number, value: number, extra: Record<string, unknown> = {}): Promise<QcRun> {
  const res = await as.post(`/api/qc/materials/${materialId}/runs`, { value, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ run: QcRun }>().run;
}

/** Sets a material's expiry straight in the database: the API refuses past expiry dates. */
async function expire(materialId: number, on: string) {
  await lab.database.db.updateTable('qc_materials').set({ expiry_date: on }).where('id', '=', materialId).execute();
}

describe('QC control materials', () => {
  it('a new material gets LOT + 3 digits, an expiry 90 days ahead, a QC-{year}-NNN id and its test unit', async () => {
    const a = await addMaterial(lab.admin, { level: 'Level 1 (Normal)' });
    const b = await addMaterial(lab.admin, { level: 'Level 2 (Abnormal High)', control_type: 'External' });
    const year = today().slice(0, 4);
    expect(a.control_id).toMatch(new RegExp(`^QC-${year}-\\d{3}$`));
    expect(a.lot_number).toMatch(/^LOT\d{3}$/);
    expect(Number(b.control_id.slice(-3))).toBe(Number(a.control_id.slice(-3)) + 1);
    expect(Number(b.lot_number.slice(3))).toBe(Number(a.lot_number.slice(3)) + 1);
    expect(a.expiry_date).toBe(addDays(today(), 90));
    expect(a).toMatchObject({
      test_name: 'Glucose Fasting',
      unit: 'mg/dL',
      control_type: 'Internal',
      status: 'active',
      days_to_expiry: 90,
      acceptable_low: 96,
      acceptable_high: 104,
      run_count: 0,
      pass_rate: 0,
      last_run: null,
    });
    expect(b.control_type).toBe('External');
  });

  it('keeps a lot number typed in, and refuses the same lot and level of a test twice (409)', async () => {
    const lot = `L${uniqueWord().toUpperCase()}`;
    const m = await addMaterial(lab.admin, {
      lot_number: lot.toLowerCase(),
      level: 'Level 1 (Normal)',
      expiry_date: addDays(today(), 10),
    });
    expect(m.lot_number).toBe(lot);
    expect(m.expiry_date).toBe(addDays(today(), 10));
    const dup = await lab.admin.post('/api/qc/materials', {
      name: 'Again',
      test_id: glucoseId,
      lot_number: lot,
      level: 'Level 1 (Normal)',
      target_mean: 1,
      target_sd: 1,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toContain(m.control_id);
  });

  it('names the field in validation messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ target_sd: 0 }, 'target_sd', 'Target SD must be greater than 0'],
      [{ target_sd: -1 }, 'target_sd', 'Target SD must be greater than 0'],
      [{ target_mean: '' }, 'target_mean', 'Target mean is required'],
      [{ target_mean: 'abc' }, 'target_mean', 'Target mean must be a number'],
      [{ test_id: '' }, 'test_id', 'Test is required'],
      [{ test_id: 999999 }, 'test_id', 'Test 999999 does not exist in this lab'],
      [{ name: ' ' }, 'name', 'Name is required'],
      [{ control_type: 'Both' }, 'control_type', 'Control type must be Internal or External'],
      [{ expiry_date: '2025-02-30' }, 'expiry_date', 'Expiry date is not a real calendar date'],
      [{ expiry_date: addDays(today(), -1) }, 'expiry_date', 'Expiry date cannot be in the past'],
      [{ lot_number: 'LOT 1' }, 'lot_number', 'Lot number may contain only letters, digits, -, / and .'],
    ];
    for (const [patch, path, message] of cases) {
      const res = await lab.admin.post('/api/qc/materials', {
        name: 'Bad',
        test_id: glucoseId,
        target_mean: 100,
        target_sd: 2,
        ...patch,
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().details, JSON.stringify(patch)).toContainEqual({ path, message });
    }
  });

  it('lists with test name, lot, targets, run count, last run and pass rate; filters by search, test, status and last run', async () => {
    const other = (
      await lab.admin.post('/api/tests', { name: 'Serum Creatinine', code: 'CREA', price: 200, unit: 'mg/dL' })
    ).json().test;
    const crea = await addMaterial(lab.admin, {
      test_id: other.id,
      name: 'Creatinine Control',
      target_mean: 1.2,
      target_sd: 0.1,
    });
    await run(lab.admin, crea.id, 1.25);
    await run(lab.admin, crea.id, 1.55); // z 3.5: 1-3s

    const byTest = (await lab.admin.get(`/api/qc/materials?test_id=${other.id}`)).json<{ materials: QcMaterial[] }>()
      .materials;
    expect(byTest.map((m) => m.id)).toEqual([crea.id]);
    expect(byTest[0]).toMatchObject({ test_name: 'Serum Creatinine', run_count: 2, passed_count: 1, pass_rate: 50 });
    expect(byTest[0]!.last_run).toMatchObject({
      value: 1.55,
      status: 'failed',
      rules: ['1-2s', '1-3s'],
      performed_by_name: 'Asha Admin',
    });

    const failed = (await lab.admin.get('/api/qc/materials?last_status=failed')).json<{ materials: QcMaterial[] }>()
      .materials;
    expect(failed.map((m) => m.id)).toContain(crea.id);
    expect(failed.every((m) => m.last_run?.status === 'failed')).toBe(true);
    const none = (await lab.admin.get('/api/qc/materials?last_status=none')).json<{ materials: QcMaterial[] }>()
      .materials;
    expect(none.length).toBeGreaterThan(0);
    expect(none.every((m) => m.last_run === null)).toBe(true);

    const found = (await lab.admin.get(`/api/qc/materials?search=${crea.control_id}`)).json<{
      materials: QcMaterial[];
    }>().materials;
    expect(found.map((m) => m.id)).toEqual([crea.id]);
    const byName = (await lab.admin.get('/api/qc/materials?search=creatinine')).json<{ materials: QcMaterial[] }>()
      .materials;
    expect(byName.map((m) => m.id)).toEqual([crea.id]);

    const bad = await lab.admin.get('/api/qc/materials?status=broken');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('status');
  });
});

describe('QC runs are judged by the Westgard rules on entry', () => {
  /** Each sequence goes into a fresh material (mean 100, SD 2); the expectation is for its last run. */
  const table: { name: string; values: number[]; status: QcRun['status']; rules: string[] }[] = [
    { name: 'within 2 SD passes', values: [101], status: 'passed', rules: [] },
    { name: 'exactly 2 SD passes (no floating-point drift)', values: [104], status: 'passed', rules: [] },
    { name: 'beyond 2 SD warns (1-2s)', values: [104.5], status: 'warning', rules: ['1-2s'] },
    { name: 'beyond 3 SD rejects (1-3s)', values: [107], status: 'failed', rules: ['1-2s', '1-3s'] },
    {
      name: 'two in a row beyond +2 SD reject the second (2-2s)',
      values: [104.5, 105],
      status: 'failed',
      rules: ['1-2s', '2-2s'],
    },
    {
      name: 'two in a row beyond -2 SD reject the second (2-2s)',
      values: [95.5, 95],
      status: 'failed',
      rules: ['1-2s', '2-2s'],
    },
    { name: '+2.5 SD then -2.5 SD rejects (R-4s)', values: [105, 95], status: 'failed', rules: ['1-2s', 'R-4s'] },
    {
      name: 'four in a row beyond +1 SD reject (4-1s)',
      values: [103, 103, 103, 103],
      status: 'failed',
      rules: ['4-1s'],
    },
    { name: 'three beyond +1 SD are not yet 4-1s', values: [103, 103, 103], status: 'passed', rules: [] },
    {
      name: 'ten in a row above the mean reject (10-x)',
      values: Array(10).fill(101) as number[],
      status: 'failed',
      rules: ['10-x'],
    },
    {
      name: 'nine above the mean are not yet 10-x',
      values: Array(9).fill(101) as number[],
      status: 'passed',
      rules: [],
    },
  ];

  for (const t of table) {
    it(t.name, async () => {
      const m = await addMaterial(lab.admin);
      let last: QcRun | undefined;
      for (const v of t.values) last = await run(lab.admin, m.id, v);
      expect(last).toMatchObject({ status: t.status, rules: t.rules, z_score: (t.values.at(-1)! - 100) / 2 });
    });
  }

  it('a value exactly 2 SD out is not a 1-2s warning even where binary fractions drift', async () => {
    const m = await addMaterial(lab.admin, { target_mean: 100, target_sd: 0.1 });
    expect(await run(lab.admin, m.id, 100.2)).toMatchObject({ status: 'passed', rules: [], z_score: 2 });
    expect(await run(lab.admin, m.id, 99.79)).toMatchObject({ status: 'warning', rules: ['1-2s'] });
  });

  it('stores z, status and rules with each run and lists the runs newest first', async () => {
    const m = await addMaterial(lab.admin, { target_mean: 5.5, target_sd: 0.25 });
    const first = await run(lab.admin, m.id, 6.05, { comments: 'after calibration' }); // z 2.2: 1-2s warning
    const second = await run(lab.admin, m.id, 6.1); // z 2.4 on the same side: 2-2s
    expect(first).toMatchObject({ status: 'warning', rules: ['1-2s'], z_score: 2.2, comments: 'after calibration' });
    expect(second).toMatchObject({
      status: 'failed',
      rules: ['1-2s', '2-2s'],
      z_score: 2.4,
      performed_by_name: 'Asha Admin',
    });
    const res = await lab.admin.get(`/api/qc/materials/${m.id}/runs`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ material: QcMaterial; runs: QcRun[] }>();
    expect(body.runs.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(body.material).toMatchObject({ run_count: 2, passed_count: 0, pass_rate: 0, last_run: { id: second.id } });
    const audit = await lab.database.db
      .selectFrom('audit_log')
      .select(['entity', 'action'])
      .where('entity', '=', 'qc_run')
      .where('entity_id', 'in', [String(first.id), String(second.id)])
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('refuses a run dated in the future or before the latest run', async () => {
    const m = await addMaterial(lab.admin);
    await run(lab.admin, m.id, 100);
    const future = await lab.admin.post(`/api/qc/materials/${m.id}/runs`, {
      value: 100,
      performed_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().details[0]).toEqual({ path: 'performed_at', message: 'Performed at cannot be in the future' });
    const backdated = await lab.admin.post(`/api/qc/materials/${m.id}/runs`, {
      value: 100,
      performed_at: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect(backdated.statusCode).toBe(400);
    expect(backdated.json().details[0].message).toContain(`before the latest run of ${m.control_id}`);
    const noValue = await lab.admin.post(`/api/qc/materials/${m.id}/runs`, { value: '' });
    expect(noValue.statusCode).toBe(400);
    expect(noValue.json().details[0]).toEqual({ path: 'value', message: 'Value is required' });
  });

  it('an expired material refuses runs (409) naming the expiry; an inactive one too', async () => {
    const m = await addMaterial(lab.admin);
    await expire(m.id, '2024-03-12');
    const res = await lab.admin.post(`/api/qc/materials/${m.id}/runs`, { value: 100 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `${m.control_id} (lot ${m.lot_number}) expired on 12/03/2024; record runs on a current lot`,
    );
    const listed = (await lab.admin.get('/api/qc/materials?status=expired')).json<{ materials: QcMaterial[] }>()
      .materials;
    expect(listed.find((x) => x.id === m.id)?.status).toBe('expired');

    const n = await addMaterial(lab.admin);
    const off = await lab.admin.put(`/api/qc/materials/${n.id}`, { ...n, is_active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().material.status).toBe('inactive');
    const refused = await lab.admin.post(`/api/qc/materials/${n.id}/runs`, { value: 100 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('is inactive');
  });

  it('a material with runs cannot be deleted (409: deactivate instead); one without runs can', async () => {
    const used = await addMaterial(lab.admin);
    await run(lab.admin, used.id, 100);
    const del = await lab.admin.delete(`/api/qc/materials/${used.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe(`${used.control_id} has 1 QC run(s); deactivate it instead of deleting it`);
    const changeTest = await lab.admin.put(`/api/qc/materials/${used.id}`, {
      test_id: (await lab.admin.post('/api/tests', { name: 'HbA1c', code: 'HBA1C', price: 500 })).json().test.id,
    });
    expect(changeTest.statusCode).toBe(409);

    const unused = await addMaterial(lab.admin);
    expect((await lab.admin.delete(`/api/qc/materials/${unused.id}`)).statusCode).toBe(200);
    expect((await lab.admin.get(`/api/qc/materials/${unused.id}`)).statusCode).toBe(404);
  });

  it('edits are saved and audited with the changed fields only', async () => {
    const m = await addMaterial(lab.admin);
    const res = await lab.admin.put(`/api/qc/materials/${m.id}`, { ...m, target_mean: 101, unit: 'mmol/L' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().material).toMatchObject({
      target_mean: 101,
      unit: 'mmol/L',
      acceptable_low: 97,
      acceptable_high: 105,
    });
    const row = await lab.database.db
      .selectFrom('audit_log')
      .select(['old_values', 'new_values'])
      .where('entity', '=', 'qc_material')
      .where('entity_id', '=', String(m.id))
      .where('action', '=', 'update')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.new_values!)).toEqual({ target_mean: 101, unit: 'mmol/L' });
  });
});

describe('QC permissions', () => {
  it('a receptionist gets 403 on reads and writes; a validator reads but cannot record; a technician records', async () => {
    const m = await addMaterial(lab.admin);
    const receptionist = await lab.as('receptionist');
    expect((await receptionist.get('/api/qc/materials')).statusCode).toBe(403);
    expect((await receptionist.get('/api/qc/summary')).statusCode).toBe(403);
    expect(
      (await receptionist.post('/api/qc/materials', { name: 'X', test_id: glucoseId, target_mean: 1, target_sd: 1 }))
        .statusCode,
    ).toBe(403);
    expect((await receptionist.post(`/api/qc/materials/${m.id}/runs`, { value: 100 })).statusCode).toBe(403);

    const validator = await lab.as('validator');
    expect((await validator.get(`/api/qc/materials/${m.id}/runs`)).statusCode).toBe(200);
    expect((await validator.post(`/api/qc/materials/${m.id}/runs`, { value: 100 })).statusCode).toBe(403);
    expect((await validator.delete(`/api/qc/materials/${m.id}`)).statusCode).toBe(403);

    const tech = await lab.as('lab_technician');
    const r = await run(tech, m.id, 100);
    expect(r.performed_by).toBe(tech.userId);
  });
});

describe('QC summary', () => {
  it('counts runs by outcome, pass rate = passed / total x 100 to one decimal, and materials expiring within 30 days', async () => {
    const fresh = await makeLab();
    try {
      const test = (await fresh.admin.post('/api/tests', { name: 'Cholesterol', code: 'CHOL', price: 150 })).json()
        .test;
      const empty = (await fresh.admin.get('/api/qc/summary')).json<{ summary: QcSummary }>().summary;
      expect(empty).toMatchObject({
        total_runs: 0,
        passed: 0,
        warnings: 0,
        failed: 0,
        pass_rate: 0,
        expiring_soon: [],
      });

      const m = await addMaterial(fresh.admin, { test_id: test.id });
      const soon = await addMaterial(fresh.admin, { test_id: test.id, expiry_date: addDays(today(), 30) });
      await addMaterial(fresh.admin, { test_id: test.id, expiry_date: addDays(today(), 31) });
      // passed, passed, warning (1-2s), failed (2-2s), passed, passed: 4 of 6 passed = 66.7
      for (const v of [100, 101, 104.5, 105, 100, 99]) await run(fresh.admin, m.id, v);
      const s = (await fresh.admin.get('/api/qc/summary')).json<{ summary: QcSummary }>().summary;
      expect(s).toMatchObject({
        total_runs: 6,
        passed: 4,
        warnings: 1,
        failed: 1,
        pass_rate: 66.7,
        active_materials: 3,
      });
      expect(s.expiring_soon.map((e) => e.id)).toEqual([soon.id]);
      expect(s.expiring_soon[0]!.days_to_expiry).toBe(30);
    } finally {
      await fresh.close();
    }
  });
});
