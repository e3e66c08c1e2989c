import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, login, makeLab, PASSWORD, type Client, type TestLab } from '../helpers.js';
import { uniqueEmail, uniqueWord } from './support.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { ConflictError } from '../../src/core/errors.js';
import { createBill } from '../../src/core/billing/service.js';
import { approveNextBill, createCentre, getCentre, updateCentreSettings } from '../../src/core/centres/service.js';
import { centreStatement, receiveCentrePayment } from '../../src/core/centres/money.js';
import { reportStatus } from '../../src/core/results/report.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { centreCreateSchema, type Centre } from '../../src/shared/schemas/centres.js';
import { addDays } from '../../src/shared/time.js';

/**
 * Thirty lab days of three centres in a lab that lets an approver pass a breach: one centre pays
 * named bills (its newest first, not the oldest), one pays odd part amounts (oldest first), one never
 * pays and has a manager approve one breaching bill now and then. Every day, for every centre, the
 * statement from the first day equals the test's own ledger (bills less payments, and what each bill
 * still owes); a breach asks for the approver exactly when the ledger says so; at the end the centre
 * that never pays has its reports held, and each centre's login sees its own patient and bills only.
 */
let lab: TestLab;
let actor: Actor;
const tests: { id: number; paise: number }[] = [];
const START = '2026-01-01';

interface Side {
  centre: Centre;
  login: Client;
  patientId: number;
  bills: { id: number; amount: number; paid: number; due: string }[];
  paid: number;
  approvals: number;
  asked: number;
}

beforeAll(async () => {
  lab = await makeLab();
  actor = systemActor(lab.organizationId);
  for (const [code, price] of [
    ['AP1', 500],
    ['AP2', 812.5],
  ] as const) {
    const t = (await lab.admin.post('/api/tests', { name: `Approver test ${code}`, code, price })).json();
    tests.push({ id: t.test.id, paise: Math.round(price * 100) });
  }
});
afterAll(async () => {
  vi.useRealTimers();
  await lab.close();
});

/** 11:30 in Kolkata on a lab day. */
const at = (day: string) => new Date(`${day}T06:00:00Z`);

async function side(spec: { credit_limit: number; credit_days: number }): Promise<Side> {
  const marker = uniqueWord('Ap');
  const centre = await createCentre(
    lab.database.db,
    actor,
    centreCreateSchema.parse({ name: `${marker} Clinic`, ...spec }),
  );
  const email = uniqueEmail('centre');
  const made = await lab.admin.post('/api/users', {
    first_name: marker,
    last_name: 'Desk',
    email,
    role: 'centre',
    centre_id: centre.id,
    password: PASSWORD,
  });
  expect(made.statusCode, made.body).toBe(201);
  const user = client(lab.app, await login(lab.app, email, PASSWORD), made.json().user.id, email);
  const reg = await user.post('/api/centre-portal/patients', {
    first_name: marker,
    last_name: 'Patient',
    gender: 'Female',
    age: 40,
  });
  expect(reg.statusCode, reg.body).toBe(201);
  return { centre, login: user, patientId: reg.json().patient.id, bills: [], paid: 0, approvals: 0, asked: 0 };
}

const owes = (s: Side) => s.bills.reduce((n, b) => n + b.amount - b.paid, 0);
const breaches = (s: Side, today: string, amount: number) =>
  s.bills.some((b) => b.paid < b.amount && b.due < today) ||
  (s.centre.credit_limit !== null && owes(s) + amount > Math.round(s.centre.credit_limit * 100));

/** The ledger's own allocation: the named bills in order, else the oldest first. */
function allocate(s: Side, paise: number, named?: number[]) {
  const order = named ? named.map((id) => s.bills.find((b) => b.id === id)!) : s.bills;
  let left = paise;
  for (const b of order) {
    const take = Math.min(left, b.amount - b.paid);
    b.paid += take;
    left -= take;
  }
  s.paid += paise;
}

describe('thirty days of three centres, the lab choosing an approver for breaches', () => {
  it('keeps every statement equal to the ledger every day and asks for the approver exactly on a breach', async () => {
    const db = lab.database.db;
    const sides = [
      await side({ credit_limit: 10000, credit_days: 20 }),
      await side({ credit_limit: 3000, credit_days: 5 }),
      await side({ credit_limit: 2000, credit_days: 3 }),
    ];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at(START));
    await updateCentreSettings(db, actor, { on_breach: 'approver' });
    let lastSampleOfNeverPays: number | null = null;
    for (let d = 0; d < 30; d++) {
      const today = addDays(START, d);
      vi.setSystemTime(at(today));
      for (const [i, s] of sides.entries()) {
        const test = tests[(d + i) % 2]!;
        const bill = () =>
          createBill(
            db,
            actor,
            billCreateSchema.parse({
              patient_id: s.patientId,
              payer_id: s.centre.payer_id,
              items: [{ item_type: 'test', item_id: test.id }],
            }),
          );
        const breach = breaches(s, today, test.paise);
        let made: Awaited<ReturnType<typeof bill>> | null = null;
        try {
          made = await bill();
          expect(breach, `${s.centre.name} day ${d}: billed past a breach without an approval`).toBe(false);
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          expect(err.code).toBe('CENTRE_APPROVAL_NEEDED');
          expect(breach, `${s.centre.name} day ${d}: asked for an approver without a breach`).toBe(true);
          s.asked += 1;
          // The centre that never pays gets a manager's approval every third day; the bill then passes, once.
          if (i === 2 && d % 3 === 0) {
            await approveNextBill(db, actor, s.centre.id, 'Doctor vouched for the payment');
            made = await bill();
            s.approvals += 1;
          }
        }
        if (made) {
          expect(Math.round(made.final_amount * 100)).toBe(test.paise);
          s.bills.push({ id: made.id, amount: test.paise, paid: 0, due: made.due_date });
          if (i === 2) {
            const smp = await db.selectFrom('samples').select('id').where('bill_id', '=', made.id).executeTakeFirst();
            lastSampleOfNeverPays = smp?.id ?? lastSampleOfNeverPays;
          }
        }
      }
      // The first centre pays its newest unpaid bill by name every third day; the second 37% of what it owes every fourth.
      const [named, part] = sides as [Side, Side, Side];
      const newest = [...named.bills].reverse().find((b) => b.paid < b.amount);
      if (d % 3 === 2 && newest) {
        const amount = newest.amount - newest.paid;
        await receiveCentrePayment(db, actor, named.centre.id, {
          amount: amount / 100,
          method: 'bank_transfer',
          bill_ids: [newest.id],
        });
        allocate(named, amount, [newest.id]);
      }
      if (d % 4 === 3 && owes(part) > 0) {
        const amount = Math.floor((owes(part) * 37) / 100);
        await receiveCentrePayment(db, actor, part.centre.id, { amount: amount / 100, method: 'upi' });
        allocate(part, amount);
      }
      // Every day: the statement from the first day is the ledger, and each bill owes what the ledger says.
      for (const s of sides) {
        const st = await centreStatement(db, lab.organizationId, s.centre.id, START, today);
        const billed = s.bills.reduce((n, b) => n + b.amount, 0);
        expect(Math.round(st.billed * 100), `${s.centre.name} day ${d}`).toBe(billed);
        expect(Math.round(st.paid * 100), `${s.centre.name} day ${d}`).toBe(s.paid);
        expect(Math.round(st.closing_balance * 100), `${s.centre.name} day ${d}`).toBe(billed - s.paid);
        const rows = s.bills.length
          ? await db
              .selectFrom('bills')
              .select(['id', 'paid_paise'])
              .where(
                'id',
                'in',
                s.bills.map((b) => b.id),
              )
              .execute()
          : [];
        for (const b of s.bills)
          expect(Number(rows.find((r) => r.id === b.id)!.paid_paise), `bill ${b.id} day ${d}`).toBe(b.paid);
      }
    }
    vi.useRealTimers();
    const [named, part, never] = sides as [Side, Side, Side];
    // Named payments went to the newest bills: an older bill of the first centre is still unpaid.
    expect(
      named.bills.some((b, k) => b.paid < b.amount && named.bills.slice(k + 1).some((n) => n.paid === n.amount)),
    ).toBe(true);
    expect(part.asked).toBeGreaterThan(0);
    expect(never.approvals).toBeGreaterThan(3);
    expect(never.asked).toBeGreaterThan(never.approvals);
    expect((await getCentre(db, lab.organizationId, never.centre.id)).hold.on_hold).toBe(true);
    expect(await reportStatus(db, lab.organizationId, lastSampleOfNeverPays!)).toMatchObject({
      releasable: false,
      code: 'REPORT_HELD_CENTRE',
    });
    // Each centre's login sees its own patient and its own bills, and another centre's bill is not there.
    for (const s of sides) {
      const patients = (await s.login.get('/api/centre-portal/patients')).json<{ patients: { id: number }[] }>();
      expect(patients.patients.map((p) => p.id)).toEqual([s.patientId]);
      const bills = (await s.login.get('/api/centre-portal/bills')).json<{ bills: { id: number }[] }>();
      expect(bills.bills.map((b) => b.id).sort((a, b) => a - b)).toEqual(s.bills.map((b) => b.id));
      const other = sides.find((o) => o !== s)!;
      expect((await s.login.get(`/api/centre-portal/bills/${other.bills[0]!.id}`)).statusCode).toBe(404);
    }
    // Ninety statements and thirty days of bills: longer than one API story, on a shared machine.
  }, 300_000);
});
