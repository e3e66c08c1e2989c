import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeLab, type TestLab } from '../helpers.js';
import { otherLabAdmin } from './support.js';
import { seedResult } from './lab-records.js';
import { MOVED_TABLES, OTHER_PATIENT_TABLES } from '../../src/core/patients/merge-repository.js';
import { billedByTestSummed, workloadByTestSummed } from '../../src/core/reports/summary.js';
import { discountsByUser } from '../../src/core/reports/bills-repository.js';

let lab: TestLab;
let test1: number;
const db = () => lab.database.db;

beforeAll(async () => {
  lab = await makeLab();
  test1 = (
    await lab.admin.post('/api/tests', { name: 'Glucose', code: 'GLUM', price: 100, category: 'Biochemistry' })
  ).json().test.id;
});
afterAll(() => lab.close());

let n = 0;
async function patient(first_name: string, extra: Record<string, unknown> = {}) {
  n += 1;
  const res = await lab.admin.post('/api/patients', {
    first_name,
    last_name: 'Merge',
    age: 30 + n,
    gender: 'Female',
    phone: `98100${String(n).padStart(5, '0')}`,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient as { id: number; patient_id: string; phone: string };
}

/** A paid bill of the patient with its ordered sample and a verified result on it; the ids. */
async function visit(patientId: number) {
  const bill = (
    await lab.admin.post('/api/bills', {
      patient_id: patientId,
      items: [{ item_type: 'test', item_id: test1 }],
      amount_paid: 100,
    })
  ).json().bill;
  const samples = (await lab.admin.get(`/api/samples?bill_id=${bill.id}`)).json().samples as { id: number }[];
  const result = await seedResult(db(), lab.organizationId, {
    sampleId: samples[0]!.id,
    patientId,
    testId: test1,
    value: '99',
    flag: 'normal',
    status: 'verified',
  });
  return { bill: bill.id as number, sample: samples[0]!.id, result };
}

async function countOf(table: string, patientId: number): Promise<number> {
  const r = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE patient_id = ${patientId}`.execute(db());
  return Number(r.rows[0]!.n);
}

describe('merging a duplicate patient', () => {
  it('moves bills, payments, samples, results and portal access to the kept record; the old code still finds it', async () => {
    const kept = await patient('Kavya');
    const dup = await patient('Kavyaa', { confirm_new: true });
    const a = await visit(kept.id);
    const b = await visit(dup.id);
    const pin = (await lab.admin.post(`/api/patients/${dup.id}/portal-pin`)).json().pin as string;

    const res = await lab.admin.post(`/api/patients/${dup.id}/merge`, { into: kept.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ patient: { id: kept.id }, merged: dup.patient_id });
    expect(res.json().moved).toMatchObject({ bills: 1, payments: 1, samples: 1, test_results: 1, portal_access: 1 });

    for (const table of ['bills', 'payments', 'samples', 'test_results', 'patient_portal_access'])
      expect(await countOf(table, dup.id), table).toBe(0);
    const bill = (await lab.admin.get(`/api/bills/${b.bill}`)).json().bill;
    expect(bill.patient_id).toBe(kept.id);
    expect((await lab.admin.get(`/api/samples/${b.sample}`)).json().sample.patient_id).toBe(kept.id);
    const result = await db()
      .selectFrom('test_results')
      .select('patient_id')
      .where('id', '=', b.result)
      .executeTakeFirst();
    expect(Number(result?.patient_id)).toBe(kept.id);
    expect(a.bill).not.toBe(b.bill);

    // The merged code finds the kept patient; the merged one is no longer listed.
    const found = (await lab.admin.get(`/api/patients?search=${dup.patient_id}`)).json();
    expect(found.patients.map((p: { id: number }) => p.id)).toEqual([kept.id]);
    const listed = (await lab.admin.get('/api/patients?search=Merge&limit=100')).json();
    expect(listed.patients.map((p: { id: number }) => p.id)).not.toContain(dup.id);
    expect((await lab.admin.get(`/api/patients/${dup.id}`)).json().patient.id).toBe(kept.id);

    // The portal PIN moved: the old code and the PIN sign in to the kept record.
    const login = await lab.app.inject({
      method: 'POST',
      url: '/api/portal/login',
      payload: { patient_id: dup.patient_id, mobile: kept.phone, pin },
      remoteAddress: '10.9.8.7',
    });
    expect(login.statusCode, login.body).toBe(200);

    // Audited on both records, in the same transaction.
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'new_values'])
      .where('entity', '=', 'patient')
      .where('entity_id', 'in', [String(dup.id), String(kept.id)])
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(audit.map((r) => r.action).sort()).toEqual(['delete', 'update']);
  });

  it('codes merged earlier follow the record they were merged into', async () => {
    const c = await patient('Chain');
    const b = await patient('Chained', { confirm_new: true });
    const a = await patient('Chainer', { confirm_new: true });
    expect((await lab.admin.post(`/api/patients/${a.id}/merge`, { into: b.id })).statusCode).toBe(200);
    expect((await lab.admin.post(`/api/patients/${b.id}/merge`, { into: c.id })).statusCode).toBe(200);
    const found = (await lab.admin.get(`/api/patients?search=${a.patient_id}`)).json();
    expect(found.patients.map((p: { id: number }) => p.id)).toEqual([c.id]);
  });

  it('refuses merging into itself (400), another lab’s patient (404) and a user without the permission (403)', async () => {
    const p = await patient('Self');
    const self = await lab.admin.post(`/api/patients/${p.id}/merge`, { into: p.id });
    expect(self.statusCode).toBe(400);
    expect(self.json().details[0].path).toBe('into');

    const { admin: other } = await otherLabAdmin(lab);
    const theirs = (
      await other.post('/api/patients', { first_name: 'Foreign', last_name: 'Lab', age: 50, gender: 'Male' })
    ).json().patient;
    expect((await lab.admin.post(`/api/patients/${p.id}/merge`, { into: theirs.id })).statusCode).toBe(404);
    expect((await lab.admin.post(`/api/patients/${theirs.id}/merge`, { into: p.id })).statusCode).toBe(404);
    expect((await other.get(`/api/patients/${theirs.id}`)).statusCode).toBe(200);

    const desk = await lab.as('receptionist');
    const q = await patient('Desk', { confirm_new: true });
    expect((await desk.post(`/api/patients/${q.id}/merge`, { into: p.id })).statusCode).toBe(403);
    expect((await lab.admin.get(`/api/patients/${q.id}`)).json().patient.id).toBe(q.id);
    const manager = await lab.as('lab_manager');
    expect((await manager.post(`/api/patients/${q.id}/merge`, { into: p.id })).statusCode).toBe(200);
  });

  it('leaves the patient count and the report figures as they were', async () => {
    const kept = await patient('Summed');
    const dup = await patient('Summd', { confirm_new: true });
    await visit(kept.id);
    await visit(dup.id);
    const snapshot = async () => {
      const w = {
        organizationId: lab.organizationId,
        fromUtc: '2000-01-01T00:00:00.000Z',
        toUtc: '2100-01-01T00:00:00.000Z',
      };
      return {
        billed: await billedByTestSummed(db(), w),
        workload: await workloadByTestSummed(db(), w),
        discounts: await discountsByUser(db(), w),
      };
    };
    const before = await snapshot();
    expect((await lab.admin.post(`/api/patients/${dup.id}/merge`, { into: kept.id })).statusCode).toBe(200);
    // The bills, samples and results kept their days, tests and doctors: each figure is as it was.
    expect(await snapshot()).toEqual(before);
    const rows = await db()
      .selectFrom('patients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', lab.organizationId)
      .executeTakeFirstOrThrow();
    const counted = await db()
      .selectFrom('entity_counts')
      .select('n')
      .where('organization_id', '=', lab.organizationId)
      .where('entity', '=', 'patients')
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(Number(rows.n));
    expect((await lab.admin.get('/api/patients?limit=1')).json().total).toBe(Number(rows.n));
  });

  it("keeps one report consent: the kept patient's where both gave one, else the merged patient's", async () => {
    const consent = (id: number, channel: string, recipient_phone: string) =>
      lab.admin.put(`/api/patients/${id}/report-consent`, { channel, consent: true, recipient_phone });
    const channelOf = async (id: number) =>
      (await lab.admin.get(`/api/patients/${id}/report-consent`)).json().consent as {
        channel: string;
        recipient_phone: string | null;
      } | null;
    // Only the merged record had consent: it moves to the kept one.
    const [a, b] = [await patient('ConsentOnly'), await patient('ConsentNone')];
    expect((await consent(a.id, 'whatsapp', '9810099991')).statusCode).toBe(200);
    expect((await lab.admin.post(`/api/patients/${a.id}/merge`, { into: b.id })).statusCode).toBe(200);
    expect(await channelOf(b.id)).toMatchObject({ channel: 'whatsapp', recipient_phone: '9810099991' });
    // Both had one: the kept patient's stays, and the merge does not fail on the key.
    const [c, d] = [await patient('ConsentSms'), await patient('ConsentEmail')];
    expect((await consent(c.id, 'sms', '9810099992')).statusCode).toBe(200);
    expect((await consent(d.id, 'email', '9810099993')).statusCode).toBe(200);
    expect((await lab.admin.post(`/api/patients/${c.id}/merge`, { into: d.id })).statusCode).toBe(200);
    expect(await channelOf(d.id)).toMatchObject({ channel: 'email', recipient_phone: '9810099993' });
    const left = await db()
      .selectFrom('patient_report_consents')
      .select('patient_id')
      .where('patient_id', 'in', [a.id, c.id])
      .execute();
    expect(left).toEqual([]);
  });

  it('every table with a patient_id column is moved or handled by a merge', async () => {
    const tables = await db().introspection.getTables();
    const withPatient = tables.filter((t) => t.columns.some((c) => c.name === 'patient_id')).map((t) => t.name);
    const handled = new Set<string>([...MOVED_TABLES, ...OTHER_PATIENT_TABLES]);
    expect(withPatient.filter((t) => !handled.has(t))).toEqual([]);
  });
});
