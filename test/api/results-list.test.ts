import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOtherLab } from './support.js';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import type { ResultPage, ResultSummary, TestResult } from '../../src/shared/schemas/results.js';

/** The results list, its filters, the summary and the export, on a lab of its own so every figure is exact. */
describe('the list, its filters and the summary (a lab of its own, so the figures are exact)', () => {
  let own: TestLab;
  let t: Client;
  let v: Client;
  let samples: { urgent: number; normal: number; code: string };

  beforeAll(async () => {
    own = await makeLab();
    const a = own.admin;
    const mk = async (body: Record<string, unknown>) =>
      (await a.post('/api/tests', { price: 100, ...body })).json().test.id as number;
    const glu = await mk({
      name: 'Glucose Random',
      code: 'RBS',
      unit: 'mg/dL',
      normal_range: '70-140',
      reference_ranges: [{ range: '70-140', critical_high: 400 }],
    });
    const urea = await mk({ name: 'Blood Urea', code: 'UREA', unit: 'mg/dL', normal_range: '15-40' });
    const crea = await mk({ name: 'Creatinine', code: 'CREA', unit: 'mg/dL', normal_range: '0.6-1.2' });
    const p = (
      await a.post('/api/patients', {
        first_name: 'Kavya',
        last_name: 'Reddy',
        date_of_birth: '1990-01-01',
        gender: 'Female',
      })
    ).json().patient.id;
    const q = (
      await a.post('/api/patients', {
        first_name: 'Rohan',
        last_name: 'Das',
        date_of_birth: '1970-01-01',
        gender: 'Male',
      })
    ).json().patient.id;
    t = await own.as('technician');
    v = await own.as('validator');
    const s1 = (
      await a.post('/api/samples', {
        patient_id: p,
        sample_type: 'Blood',
        test_ids: [glu, urea, crea],
        priority: 'urgent',
      })
    ).json().sample;
    const s2 = (await a.post('/api/samples', { patient_id: q, sample_type: 'Blood', test_ids: [glu, urea] })).json()
      .sample;
    // Ordered but not drawn yet: not on the worklist.
    await a.post('/api/samples', { patient_id: q, sample_type: 'Blood', test_ids: [crea], status: 'pending' });
    samples = { urgent: s1.id, normal: s2.id, code: s2.sample_id };
    const e = async (sample_id: number, test_id: number, result_value: string) =>
      (await t.post('/api/test-results', { sample_id, test_id, result_value })).json().result as TestResult;
    await e(s1.id, glu, '450'); // critical, high
    const ok = await e(s1.id, urea, '30'); // normal
    const rej = await e(s2.id, glu, '60'); // low
    await v.put(`/api/test-results/${ok.id}/verify`);
    await v.put(`/api/test-results/${rej.id}/reject`, { reason: 'Haemolysed' });
  });
  afterAll(() => own.close());

  const list = async (query: string) => (await own.admin.get(`/api/test-results?${query}`)).json<ResultPage>();

  it('lists entered results and the worklist of tests awaiting a result, with the spec fields', async () => {
    const page = await list('');
    expect(page.total).toBe(5);
    expect(
      page.results
        .filter((r) => r.id === null)
        .map((r) => r.test_name)
        .sort(),
    ).toEqual(['Blood Urea', 'Creatinine']);
    const critical = page.results.find((r) => r.is_critical)!;
    expect(critical).toMatchObject({
      first_name: 'Kavya',
      last_name: 'Reddy',
      test_name: 'Glucose Random',
      result_value: '450',
      unit: 'mg/dL',
      normal_range: '70-140',
      flag: 'high',
      priority: 'urgent',
      validation_status: 'review_required',
    });
    expect(critical.patient_number).toMatch(/^PAT/);
    expect(critical.sample_number).toMatch(/^SMP/);
    expect(Object.keys(critical)).toEqual(
      expect.arrayContaining([
        'created_at',
        'notes',
        'technician_id',
        'technician_name',
        'verified_by',
        'verified_by_name',
        'verified_at',
        'amended',
      ]),
    );
    expect(page).toMatchObject({ currentPage: 1, totalPages: 1, hasNextPage: false, hasPrevPage: false });
    const paged = await list('limit=2&page=2');
    expect(paged.results).toHaveLength(2);
    expect(paged).toMatchObject({ total: 5, totalPages: 3, hasNextPage: true, hasPrevPage: true });
  });

  it('filters by status, abnormal, validation queue, priority, critical, sample and search', async () => {
    const keys = async (q: string) => (await list(q)).results.map((r) => `${r.test_name}:${r.status}`).sort();
    expect(await keys('status=pending')).toEqual(['Blood Urea:pending', 'Creatinine:pending']);
    expect(await keys('status=verified')).toEqual(['Blood Urea:verified']);
    expect(await keys('status=abnormal')).toEqual(['Glucose Random:completed', 'Glucose Random:rejected']);
    expect(await keys('validation=review_required')).toEqual(['Glucose Random:completed']);
    expect(await keys('validation=rejected')).toEqual(['Glucose Random:rejected']);
    expect(await keys('validation=validated')).toEqual(['Blood Urea:verified']);
    expect(await keys('validation=pending')).toEqual([]);
    // The queue's opening view: everything entered and not yet verified, review required included.
    expect(await keys('validation=awaiting')).toEqual(['Glucose Random:completed']);
    expect(await keys('critical=true')).toEqual(['Glucose Random:completed']);
    expect(await keys('critical_call=pending')).toEqual(['Glucose Random:completed']);
    expect(await keys('critical_call=logged')).toEqual([]);
    expect(await keys('priority=urgent')).toEqual([
      'Blood Urea:verified',
      'Creatinine:pending',
      'Glucose Random:completed',
    ]);
    expect(await keys(`sample_id=${samples.normal}`)).toEqual(['Blood Urea:pending', 'Glucose Random:rejected']);
    expect(await keys('search=rohan')).toEqual(['Blood Urea:pending', 'Glucose Random:rejected']);
    expect(await keys(`search=${samples.code.toLowerCase()}`)).toEqual([
      'Blood Urea:pending',
      'Glucose Random:rejected',
    ]);
    expect(await keys('search=creat')).toEqual(['Creatinine:pending']);
    expect(await keys('status=all&priority=all&validation=')).toHaveLength(5);
    const bad = await own.admin.get('/api/test-results?status=done');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('status');
  });

  it('the summary counts the same things the filters find', async () => {
    const s = (await own.admin.get('/api/test-results/summary')).json<{ summary: ResultSummary }>().summary;
    expect(s).toEqual({
      total: 5,
      completed: 1,
      verified: 1,
      pending: 2,
      rejected: 1,
      abnormal: 2,
      critical: 1,
      critical_uncalled: 1,
      awaiting_validation: 1,
      pending_validation: 0,
      review_required: 1,
      validated_today: 1,
    });
  });

  it('exports the filtered queue as CSV and records the export', async () => {
    const res = await own.admin.get('/api/test-results/export?validation=review_required');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('result_id,patient_name');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Kavya Reddy');
    expect(lines[1]).toContain('review_required');
    const audit = await own.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'test_result')
      .where('action', '=', 'export')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("is scoped to the lab: another lab's result is 404 and never listed", async () => {
    const db = own.database.db;
    const org = { id: await insertOtherLab(db) };
    const mine = await db.selectFrom('test_results').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...copy } = mine;
    const foreignSample = await db
      .selectFrom('samples')
      .selectAll()
      .where('id', '=', mine.sample_id)
      .executeTakeFirstOrThrow();
    const { id: _sid, ...sampleCopy } = foreignSample;
    const s = await db
      .insertInto('samples')
      .values({ ...sampleCopy, organization_id: org.id, sample_code: 'SMPOTHER0001', barcode: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const r = await db
      .insertInto('test_results')
      .values({ ...copy, organization_id: org.id, sample_id: s.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await own.admin.get(`/api/test-results/${r.id}`)).statusCode).toBe(404);
    expect((await own.admin.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(404);
    expect((await own.admin.get(`/api/samples/${s.id}/report.pdf`)).statusCode).toBe(404);
    expect((await list('')).total).toBe(5);
  });

  it('needs view_results to read', async () => {
    const billing = await own.as('billing_staff');
    expect((await billing.get('/api/test-results')).statusCode).toBe(403);
    expect((await billing.get('/api/test-results/summary')).statusCode).toBe(403);
    expect((await own.app.inject({ url: '/api/test-results' })).statusCode).toBe(401);
  });
});
