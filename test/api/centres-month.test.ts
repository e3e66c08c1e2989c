import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { ConflictError } from '../../src/core/errors.js';
import { createBill } from '../../src/core/billing/service.js';
import { createCentre, getCentre } from '../../src/core/centres/service.js';
import { centreStatement, receiveCentrePayment } from '../../src/core/centres/money.js';
import { reportStatus } from '../../src/core/results/report.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { centreCreateSchema, type Centre } from '../../src/shared/schemas/centres.js';
import { addDays } from '../../src/shared/time.js';

/**
 * Thirty lab days of three centres, billed and paid as centres do: one pays its statement weekly,
 * one pays half of what it owes now and then, one never pays. Beside lims, the test keeps its own
 * ledger of every bill and payment; each day a bill is refused exactly when that ledger says the
 * centre is past its limit or has a bill past its credit days, and the statement of the month equals
 * the bills less the payments, to the paisa.
 */
let lab: TestLab;
let actor: Actor;
const tests: number[] = [];
const START = '2026-01-01';

interface ModelBill {
  id: number;
  amount: number; // paise
  paid: number;
  due: string;
}
interface Model {
  centre: Centre;
  bills: ModelBill[];
  paid: number;
  refusals: number;
}

beforeAll(async () => {
  lab = await makeLab();
  actor = systemActor(lab.organizationId);
  for (const [code, price] of [
    ['M1', 400],
    ['M2', 650.5],
    ['M3', 1200],
  ] as const)
    tests.push((await lab.admin.post('/api/tests', { name: `Month test ${code}`, code, price })).json().test.id);
});
afterAll(async () => {
  vi.useRealTimers();
  await lab.close();
});

/** 11:30 in Kolkata on a lab day. */
const at = (day: string) => new Date(`${day}T06:00:00Z`);

function expectedHold(m: Model, today: string, amount: number, limit: number | null): boolean {
  const balance = m.bills.reduce((s, b) => s + b.amount - b.paid, 0);
  const late = m.bills.some((b) => b.paid < b.amount && b.due < today);
  return late || (limit !== null && balance + amount > limit);
}

/** Oldest first, as lims allocates; the model's own bookkeeping. */
function allocate(m: Model, paise: number) {
  let left = paise;
  for (const b of m.bills) {
    const take = Math.min(left, b.amount - b.paid);
    b.paid += take;
    left -= take;
  }
  m.paid += paise;
}

describe('thirty days of three centres', () => {
  it('refuses exactly the bills the ledger says, holds reports, and the statement is bills less payments', async () => {
    const db = lab.database.db;
    const patients = await Promise.all([0, 1, 2].map(() => createPatient(lab.admin)));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at(START));
    const specs = [
      { name: 'Weekly Payer Clinic', credit_limit: 20000, credit_days: 15, discount_percent: 10, share_percent: 20 },
      { name: 'Part Payer Clinic', credit_limit: 6000, credit_days: 7, discount_percent: 0, share_percent: 12.5 },
      { name: 'Never Pays Clinic', credit_limit: 4000, credit_days: 10, discount_percent: 5, share_percent: 30 },
    ];
    const models: Model[] = [];
    for (const s of specs)
      models.push({
        centre: await createCentre(db, actor, centreCreateSchema.parse(s)),
        bills: [],
        paid: 0,
        refusals: 0,
      });
    let lastSampleOfNeverPays: number | null = null;
    for (let d = 0; d < 30; d++) {
      const today = addDays(START, d);
      vi.setSystemTime(at(today));
      for (const [i, m] of models.entries()) {
        const limit = m.centre.credit_limit === null ? null : Math.round(m.centre.credit_limit * 100);
        const items = [{ item_type: 'test' as const, item_id: tests[(d + i) % 3]! }];
        const refusedExpected = (amount: number) => expectedHold(m, today, amount, limit);
        try {
          const bill = await createBill(
            db,
            actor,
            billCreateSchema.parse({ patient_id: patients[i]!.id, payer_id: m.centre.payer_id, items }),
          );
          const amount = Math.round(bill.final_amount * 100);
          expect(refusedExpected(amount), `${m.centre.name} day ${d}: lims billed, the ledger says refuse`).toBe(false);
          m.bills.push({ id: bill.id, amount, paid: 0, due: bill.due_date });
          expect(bill.due_date).toBe(addDays(today, m.centre.credit_days));
          if (i === 2) {
            const s = await db.selectFrom('samples').select('id').where('bill_id', '=', bill.id).executeTakeFirst();
            lastSampleOfNeverPays = s?.id ?? lastSampleOfNeverPays;
          }
        } catch (err) {
          if (!(err instanceof ConflictError)) throw err;
          expect(err.code).toBe('CENTRE_ON_HOLD');
          // The price the bill would have had: the lab price less the centre's % off.
          const lab = [40000, 65050, 120000][(d + i) % 3]!;
          const amount = lab - Math.floor((lab * Math.round(specs[i]!.discount_percent * 100) + 5000) / 10000);
          expect(refusedExpected(amount), `${m.centre.name} day ${d}: lims refused, the ledger says bill`).toBe(true);
          m.refusals += 1;
        }
      }
      // Payments: the weekly payer clears its account every 7th day; the part payer pays half every 5th.
      const owed = (m: Model) => m.bills.reduce((s, b) => s + b.amount - b.paid, 0);
      if (d % 7 === 6 && owed(models[0]!) > 0) {
        const amount = owed(models[0]!);
        await receiveCentrePayment(db, actor, models[0]!.centre.id, { amount: amount / 100, method: 'bank_transfer' });
        allocate(models[0]!, amount);
      }
      if (d % 5 === 4 && owed(models[1]!) > 0) {
        const amount = Math.floor(owed(models[1]!) / 2);
        await receiveCentrePayment(db, actor, models[1]!.centre.id, { amount: amount / 100, method: 'upi' });
        allocate(models[1]!, amount);
      }
    }
    const end = addDays(START, 29);
    for (const m of models) {
      const st = await centreStatement(db, lab.organizationId, m.centre.id, START, end);
      const billed = m.bills.reduce((s, b) => s + b.amount, 0);
      expect(Math.round(st.billed * 100)).toBe(billed);
      expect(Math.round(st.paid * 100)).toBe(m.paid);
      expect(st.opening_balance).toBe(0);
      expect(Math.round(st.closing_balance * 100)).toBe(billed - m.paid);
      expect(st.entries.at(-1)?.balance).toBe(st.closing_balance);
      const ageing = Object.values(st.ageing).reduce((s, v) => s + Math.round(v * 100), 0);
      expect(ageing).toBe(billed - m.paid);
      const now = await getCentre(db, lab.organizationId, m.centre.id);
      expect(Math.round(now.balance * 100)).toBe(billed - m.paid);
    }
    // The weekly payer was never refused; the centre that never pays was, and is on hold with its reports held.
    expect(models[0]!.refusals).toBe(0);
    expect(models[2]!.refusals).toBeGreaterThan(10);
    expect(models[1]!.refusals + models[2]!.refusals).toBeGreaterThan(0);
    const neverPays = await getCentre(db, lab.organizationId, models[2]!.centre.id);
    expect(neverPays.hold.on_hold).toBe(true);
    expect(lastSampleOfNeverPays).not.toBeNull();
    const held = await reportStatus(db, lab.organizationId, lastSampleOfNeverPays!);
    expect(held).toMatchObject({ releasable: false, code: 'REPORT_HELD_CENTRE' });
    vi.useRealTimers();
  });
});
