import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { uniqueWord } from './support.js';
import type { Bill } from '../../src/shared/schemas/bills.js';
import type { Sample } from '../../src/shared/schemas/samples.js';
import type { AuditLog } from '../../src/shared/schemas/audit.js';

/**
 * The front desk changes a saved bill: a test added or taken off until its samples are drawn (the
 * difference charged or refunded, the order of tubes following, audited), a self-referred bill,
 * and lines that would charge a test twice.
 */
let lab: TestLab;
let desk: Client;
const t = { cbc: 0, esr: 0, fbs: 0, tsh: 0 };
let wellness = 0;
let n = 0;

beforeAll(async () => {
  lab = await makeLab();
  const add = async (name: string, code: string, price: number, container: string) => {
    const res = await lab.admin.post('/api/tests', { name, code, price, category: 'General', container });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().test.id as number;
  };
  t.cbc = await add('Complete Blood Count', 'CBC', 300, 'edta');
  t.esr = await add('ESR', 'ESR', 100, 'edta');
  t.fbs = await add('Fasting Blood Sugar', 'FBS', 80, 'fluoride');
  t.tsh = await add('TSH', 'TSH', 400, 'serum');
  wellness = (
    await lab.admin.post('/api/test-packages', {
      name: 'Wellness Package',
      code: 'WELL',
      price: 600,
      test_ids: [t.cbc, t.tsh],
      duration: '1 day',
    })
  ).json().package.id;
  desk = await lab.as('receptionist');
});
afterAll(() => lab.close());

async function patient(): Promise<number> {
  n += 1;
  const res = await desk.post('/api/patients', {
    // Names of their own: registration looks for likely duplicates.
    first_name: uniqueWord('Me'),
    last_name: uniqueWord('De'),
    date_of_birth: `19${60 + n}-01-01`,
    gender: 'female',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient.id;
}

const line = (item_id: number, item_type = 'test') => ({ item_type, item_id });

async function bill(items: { item_type: string; item_id: number }[], paid?: number): Promise<Bill> {
  const res = await desk.post('/api/bills', {
    patient_id: await patient(),
    items,
    ...(paid ? { amount_paid: paid, payment_method: 'cash' } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().bill;
}

async function samplesOf(b: Bill): Promise<Sample[]> {
  return (await lab.admin.get(`/api/samples?patient_id=${b.patient_id}`))
    .json<{ samples: Sample[] }>()
    .samples.filter((s) => s.bill_id === b.id);
}

const testsOn = (samples: Sample[]) => samples.map((s) => [s.container, [...s.test_ids].sort()]);

async function lastAudit(entity: string, id: number): Promise<AuditLog> {
  const logs = (await lab.admin.get(`/api/audit?entity=${entity}&limit=50`)).json<{ logs: AuditLog[] }>().logs;
  return logs.find((l) => l.entity_id === String(id) && l.action === 'update')!;
}

describe('tests added to or taken off a saved bill', () => {
  it('adds a test: the due grows, its tube is ordered, the change is audited with the old and new lines', async () => {
    const b = await bill([line(t.cbc)], 300);
    expect(b.payment_status).toBe('paid');
    const res = await desk.put(`/api/bills/${b.id}/items`, {
      items: [line(t.cbc), line(t.esr), line(t.fbs)],
      reason: 'Doctor asked for ESR and FBS',
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<{ bill: Bill }>().bill;
    expect(after.final_amount).toBe(480);
    expect(after.paid_amount).toBe(300);
    expect(after.balance).toBe(180);
    expect(after.items!.map((i) => i.code)).toEqual(['CBC', 'ESR', 'FBS']);
    // ESR joins the EDTA tube still waiting; FBS gets its own fluoride tube, as at billing.
    const samples = await samplesOf(b);
    expect(samples.every((s) => s.status === 'pending')).toBe(true);
    expect(testsOn(samples).sort()).toEqual(
      [
        ['edta', [t.cbc, t.esr].sort()],
        ['fluoride', [t.fbs]],
      ].sort(),
    );
    const audit = await lastAudit('bill', b.id);
    expect(audit.old_values).toMatchObject({ final_amount_paise: 30000, items: [{ name: 'Complete Blood Count' }] });
    expect(audit.new_values).toMatchObject({ final_amount_paise: 48000, reason: 'Doctor asked for ESR and FBS' });
    expect((audit.new_values!.items as unknown[]).length).toBe(3);
  });

  it('takes a test off a paid bill: the excess is refunded on the ledger and its tube withdrawn', async () => {
    const b = await bill([line(t.cbc), line(t.fbs)], 380);
    const res = await desk.put(`/api/bills/${b.id}/items`, { items: [line(t.cbc)], refund_method: 'cash' });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<{ bill: Bill }>().bill;
    expect(after.final_amount).toBe(300);
    expect(after.paid_amount).toBe(300);
    expect(after.payment_status).toBe('paid');
    const refund = after.payments!.find((p) => p.amount < 0)!;
    expect(refund).toMatchObject({ amount: -80, method: 'cash' });
    expect(refund.reason).toMatch(/Fasting Blood Sugar/);
    expect(testsOn(await samplesOf(b))).toEqual([['edta', [t.cbc]]]);
  });

  it('keeps the price a line was charged, and an unpaid bill just owes less', async () => {
    const b = await bill([line(t.cbc), line(t.esr)]);
    expect((await lab.admin.put(`/api/tests/${t.cbc}`, { price: 350 })).statusCode).toBe(200);
    const res = await desk.put(`/api/bills/${b.id}/items`, { items: [line(t.cbc)] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().bill).toMatchObject({ final_amount: 300, paid_amount: 0, payments: [] });
    // ESR left the EDTA tube it shared with CBC; the tube stays for CBC.
    expect(testsOn(await samplesOf(b))).toEqual([['edta', [t.cbc]]]);
    await lab.admin.put(`/api/tests/${t.cbc}`, { price: 300 });
  });

  it('is refused (409 naming the sample) once a sample of a removed test is collected; nothing changes', async () => {
    const b = await bill([line(t.cbc), line(t.fbs)], 380);
    const [edta] = (await samplesOf(b)).filter((s) => s.container === 'edta');
    expect((await lab.admin.post('/api/samples/collect', { ids: [edta!.id] })).statusCode).toBe(200);
    const res = await desk.put(`/api/bills/${b.id}/items`, { items: [line(t.fbs)] });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('SAMPLE_COLLECTED');
    expect(res.json().message).toContain(edta!.sample_id);
    const still = (await desk.get(`/api/bills/${b.id}`)).json<{ bill: Bill }>().bill;
    expect(still).toMatchObject({ final_amount: 380, paid_amount: 380 });
    expect(still.items!.map((i) => i.code)).toEqual(['CBC', 'FBS']);
    // Taking off the test whose tube is still waiting is fine.
    const ok = await desk.put(`/api/bills/${b.id}/items`, { items: [line(t.cbc)] });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a cancelled bill, and a role without create_bills', async () => {
    const b = await bill([line(t.cbc)]);
    const collector = await lab.as('collector');
    expect((await collector.put(`/api/bills/${b.id}/items`, { items: [line(t.esr)] })).statusCode).toBe(403);
    await lab.admin.put(`/api/bills/${b.id}`, { status: 'cancelled', cancel_reason: 'Wrong patient' });
    const res = await desk.put(`/api/bills/${b.id}/items`, { items: [line(t.esr)] });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('BILL_CANCELLED');
    const bad = await desk.put(`/api/bills/${b.id}/items`, { items: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('items');
  });
});

describe('self-referred bills', () => {
  it('a bill with no doctor is a lab-only visit with no fee', async () => {
    const res = await desk.post('/api/bills', { patient_id: await patient(), doctor_id: null, items: [line(t.cbc)] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().bill).toMatchObject({ doctor_id: null, final_amount: 300 });
  });
});

describe('a test charged twice', () => {
  it('CBC and a package holding CBC: 409 DUPLICATE_ITEM naming the package, unless confirmed', async () => {
    const p = await patient();
    const items = [line(t.cbc), line(wellness, 'package')];
    const res = await desk.post('/api/bills', { patient_id: p, items });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('DUPLICATE_ITEM');
    expect(res.json().details).toEqual([
      { path: 'items.0', message: 'Complete Blood Count is already in the package Wellness Package' },
    ]);
    const ok = await desk.post('/api/bills', { patient_id: p, items, confirm_duplicates: true });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('the same test twice, and a change of a saved bill that would charge twice', async () => {
    const dup = await desk.post('/api/bills', { patient_id: await patient(), items: [line(t.fbs), line(t.fbs)] });
    expect(dup.json().details).toEqual([{ path: 'items.1', message: 'Fasting Blood Sugar is on the bill twice' }]);
    const b = await bill([line(wellness, 'package')]);
    const res = await desk.put(`/api/bills/${b.id}/items`, { items: [line(wellness, 'package'), line(t.cbc)] });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('DUPLICATE_ITEM');
  });
});
