import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, rows } from '../db.js';
import { makeLab, type TestLab } from '../helpers.js';
import { createPatient, uniqueWord } from './support.js';
import type { Database_ } from '../../src/core/db/connection.js';
import type { Bill } from '../../src/shared/schemas/bills.js';

/**
 * Cancelling a bill is announced (bill.cancelled) and the features tied to it react in the same
 * transaction: its consultation visit is cancelled and its tubes not drawn yet are withdrawn. A
 * listener that fails refuses the whole cancel: the bill, the visit and the tubes stay as they were.
 */
let lab: TestLab;
let testId: number;
let doctorId: number;

beforeAll(async () => {
  lab = await makeLab();
  const code = uniqueWord('EV').slice(0, 8).toUpperCase();
  testId = (
    await lab.admin.post('/api/tests', { name: `Glucose ${code}`, code, price: 120, container: 'fluoride' })
  ).json<{ test: { id: number } }>().test.id;
  const doctor = await lab.admin.post('/api/users', {
    first_name: 'Asha',
    last_name: 'Kulkarni',
    email: `${uniqueWord('asha')}@lab.test`,
    role: 'doctor',
    password: 'longpassword1',
    consultation_fee: 300,
  });
  expect(doctor.statusCode, doctor.body).toBe(201);
  doctorId = doctor.json<{ user: { id: number } }>().user.id;
});
afterAll(() => lab.close());

async function billWithDoctor(): Promise<Bill> {
  const patient = await createPatient(lab.admin);
  const res = await lab.admin.post('/api/bills', {
    patient_id: patient.id,
    doctor_id: doctorId,
    items: [{ item_type: 'test', item_id: testId }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bill: Bill }>().bill;
}

const visitStatuses = async (billId: number) =>
  (await rows<{ status: string }>(lab.database, 'SELECT status FROM visits WHERE bill_id = ?', billId)).map(
    (r) => r.status,
  );
const sampleCount = async (billId: number) =>
  (await rows<{ id: number }>(lab.database, 'SELECT id FROM samples WHERE bill_id = ?', billId)).length;

/** Makes the database refuse deleting a sample, so the samples' listener of bill.cancelled fails. */
async function refuseSampleDeletes(database: Database_): Promise<() => Promise<void>> {
  if (database.engine === 'sqlite') {
    database.sqlite.exec(
      "CREATE TRIGGER samples_keep BEFORE DELETE ON samples BEGIN SELECT RAISE(ABORT, 'samples kept'); END",
    );
    return async () => void database.sqlite.exec('DROP TRIGGER samples_keep');
  }
  await exec(
    database,
    `CREATE FUNCTION samples_keep() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'samples kept'; END $$`,
  );
  await exec(
    database,
    'CREATE TRIGGER samples_keep BEFORE DELETE ON samples FOR EACH ROW EXECUTE FUNCTION samples_keep()',
  );
  return async () => {
    await exec(database, 'DROP TRIGGER samples_keep ON samples');
    await exec(database, 'DROP FUNCTION samples_keep()');
  };
}

describe('bill.cancelled', () => {
  it('cancelling a bill cancels its visit and withdraws its tubes not drawn yet, in one go', async () => {
    const bill = await billWithDoctor();
    expect(await visitStatuses(bill.id)).toEqual(['completed']);
    expect(await sampleCount(bill.id)).toBe(1);

    const res = await lab.admin.put(`/api/bills/${bill.id}`, { status: 'cancelled', cancel_reason: 'Entered twice' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await visitStatuses(bill.id)).toEqual(['cancelled']);
    expect(await sampleCount(bill.id)).toBe(0);
  });

  it('deleting a bill runs the same cascade before the bill goes', async () => {
    const bill = await billWithDoctor();
    const res = await lab.admin.delete(`/api/bills/${bill.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await sampleCount(bill.id)).toBe(0);
    const audit = await rows<{ entity: string; action: string }>(
      lab.database,
      "SELECT entity, action FROM audit_log WHERE entity IN ('sample', 'bill') AND new_values IS NULL AND old_values LIKE ?",
      `%bill ${bill.bill_number} deleted%`,
    );
    expect(audit).toEqual([{ entity: 'sample', action: 'delete' }]);
  });

  it("a listener's failure rolls the cancel back: bill, visit and tubes stay as they were", async () => {
    const bill = await billWithDoctor();
    const restore = await refuseSampleDeletes(lab.database);
    try {
      const res = await lab.admin.put(`/api/bills/${bill.id}`, { status: 'cancelled', cancel_reason: 'Entered twice' });
      expect(res.statusCode).toBe(500);
    } finally {
      await restore();
    }
    const after = (await lab.admin.get(`/api/bills/${bill.id}`)).json<{ bill: Bill }>().bill;
    expect(after.status).not.toBe('cancelled');
    expect(after.cancel_reason ?? null).toBeNull();
    // The visits' listener ran first and cancelled the visit; the samples' failure undid it.
    expect(await visitStatuses(bill.id)).toEqual(['completed']);
    expect(await sampleCount(bill.id)).toBe(1);

    const again = await lab.admin.put(`/api/bills/${bill.id}`, { status: 'cancelled', cancel_reason: 'Entered twice' });
    expect(again.statusCode, again.body).toBe(200);
    expect(await visitStatuses(bill.id)).toEqual(['cancelled']);
  });
});
