import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { discountsByUser } from '../../src/core/reports/bills-repository.js';
import {
  billedByDoctorSummed,
  billedTotalsSummed,
  billsPerDaySummed,
  discountsByUserSummed,
} from '../../src/core/reports/money.js';
import { planDays, refreshRollups, restartRollups } from '../../src/core/reports/rollups/days.js';
import { billedByDoctor, billedTotals, billsPerDay } from '../../src/core/payments/repository.js';
import { revenueDaily } from '../../src/core/reports/revenue.js';
import { revenueAnalytics } from '../../src/core/reports/service.js';
import { addDays, labDayBounds, startOfLocalDayUtc } from '../../src/shared/time.js';
import { organizationTimezone } from '../../src/core/settings/organization.js';
import type { Db } from '../../src/core/db/connection.js';
import { sorted } from './report-rollups-support.js';

/**
 * The money rollups (discounts per user, bills per day, bills per referring doctor; one row per lab
 * day, rebuilt from that day's rows) give the figures the rows give: a lab with bills by two users,
 * line and bill discounts, referring doctors, cancelled bills, payments and refunds over thirty days
 * across the lab's day bounds, read through every reader and screen that uses them and compared with
 * the readers of the rows: stale (read inside a transaction, so nothing is rebuilt), refreshed,
 * after edits to past days' discounts, makers and doctors, and after a change of time zone.
 */

let lab: TestLab;
const db = () => lab.database.db;
const org = () => lab.organizationId;
const tests: number[] = [];
const doctors: (number | null)[] = [null];
const makers: number[] = [];
const FIRST_DAY = '2026-08-10';
const DAYS = 30;

let seed = 11;
const rand = (n: number) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 16) % n;
};

const at = (day: string, minutesAfterUtcMidnight: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + minutesAfterUtcMidnight * 60_000).toISOString();

async function bill(patientId: number, createdAt: string, paid: boolean) {
  const picked = tests.filter(() => rand(3) > 0);
  const res = await lab.admin.post('/api/bills', {
    visit_type: 'lab_only',
    patient_id: patientId,
    doctor_id: doctors[rand(doctors.length)],
    items: (picked.length ? picked : [tests[0]!]).map((id) => ({
      item_type: 'test',
      item_id: id,
      qty: 1 + rand(2),
      discount_percent: rand(3) === 0 ? 5 + rand(20) : 0,
    })),
    discount_percentage: rand(4) === 0 ? 10 : 0,
    ...(paid ? { amount_paid: 50 + rand(100) } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().bill.id as number;
  await db()
    .updateTable('bills')
    .set({ created_at: createdAt, created_by: makers[rand(makers.length)]! })
    .where('id', '=', id)
    .execute();
  return id;
}

beforeAll(async () => {
  lab = await makeLab();
  for (const [name, code] of [
    ['Lipid Profile', 'MLIP'],
    ['HbA1c', 'MHBA'],
    ['Vitamin D', 'MVTD'],
  ] as const) {
    const t = await lab.admin.post('/api/tests', { name, code, price: 200 + rand(500), category: 'Biochemistry' });
    expect(t.statusCode, t.body).toBe(201);
    tests.push(t.json().test.id as number);
  }
  for (const first of ['Meera', 'Arjun']) {
    const d = await lab.admin.post('/api/users', {
      first_name: first,
      last_name: 'Doctor',
      email: `${first.toLowerCase()}.money@lab.test`,
      role: 'doctor',
      password: 'longpassword1',
      consultation_fee: 250,
    });
    expect(d.statusCode, d.body).toBe(201);
    doctors.push(d.json().user.id as number);
  }
  makers.push(lab.admin.userId, (await lab.as('receptionist')).userId);
  const patients: number[] = [];
  for (const first of ['Kavya', 'Rohan', 'Ishaan']) {
    const p = await lab.admin.post('/api/patients', {
      first_name: first,
      last_name: 'Money',
      gender: 'Female',
      date_of_birth: '1975-05-05',
    });
    expect(p.statusCode, p.body).toBe(201);
    patients.push(p.json().patient.id as number);
  }
  for (let k = 0; k < DAYS; k++) {
    const day = addDays(FIRST_DAY, k);
    // Around the lab's midnight (18:30 UTC in Asia/Kolkata) and New York's (04:00 UTC in summer).
    for (const minute of [rand(1440), 1080 + rand(120), 200 + rand(90)]) {
      const cancel = rand(6) === 0;
      const b = await bill(patients[rand(patients.length)]!, at(day, minute), !cancel && rand(4) > 0);
      if (cancel) {
        const res = await lab.admin.put(`/api/bills/${b}`, { status: 'cancelled', cancel_reason: 'Twice' });
        expect(res.statusCode, res.body).toBe(200);
      } else if (rand(5) === 0) {
        const pay = await db().selectFrom('payments').select('id').where('bill_id', '=', b).executeTakeFirst();
        if (!pay) continue;
        const refund = await lab.admin.post(`/api/payments/${pay.id}/refund`, { amount: 20, reason: 'Overcharged' });
        expect(refund.statusCode, refund.body).toBe(201);
      }
    }
  }
});

afterAll(() => lab.close());

/** Periods: beyond the rows at both ends, a week, one day, and one off the lab-day bounds. */
async function windows(d: Db) {
  const tz = await organizationTimezone(d, org());
  const utc = (day: string) => startOfLocalDayUtc(tz, day).toISOString();
  return [
    [utc(addDays(FIRST_DAY, -1)), utc(addDays(FIRST_DAY, DAYS + 1))],
    [utc(addDays(FIRST_DAY, 4)), utc(addDays(FIRST_DAY, 11))],
    [utc(addDays(FIRST_DAY, 9)), utc(addDays(FIRST_DAY, 10))],
    ['2026-08-13T07:13:00.000Z', '2026-08-29T22:01:00.000Z'],
  ].map(([fromUtc, toUtc]) => ({ organizationId: org(), fromUtc: fromUtc!, toUtc: toUtc! }));
}

/** Every reader and screen that uses a money rollup, against the rows, on `d`. */
async function expectAsRows(d: Db, label: string) {
  for (const w of await windows(d)) {
    const where = `${label}: ${w.fromUtc} - ${w.toUtc}`;
    expect(sorted(await discountsByUserSummed(d, w)), `discounts ${where}`).toEqual(
      sorted(await discountsByUser(d, w)),
    );
    expect(await billedTotalsSummed(d, org(), w.fromUtc, w.toUtc), `totals ${where}`).toEqual(
      await billedTotals(d, org(), w.fromUtc, w.toUtc),
    );
    expect(sorted(await billedByDoctorSummed(d, org(), w.fromUtc, w.toUtc)), `doctors ${where}`).toEqual(
      sorted(await billedByDoctor(d, org(), w.fromUtc, w.toUtc)),
    );
  }
  const tz = await organizationTimezone(d, org());
  const from = addDays(FIRST_DAY, -2);
  const to = addDays(FIRST_DAY, DAYS + 1);
  const names: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) names.push(day);
  const bounds = labDayBounds(tz, names);
  const rows = await billsPerDay(d, org(), bounds);
  const summed = await billsPerDaySummed(d, org(), bounds);
  expect(sorted(summed.days), `${label}: bills per day`).toEqual(sorted(rows.days));
  expect(summed.patients, `${label}: patients`).toBe(rows.patients);

  // The /revenue screen: its daily table and its cards and doctors, from the same rows.
  const daily = await revenueDaily(d, org(), { from, to });
  const perDay = new Map(rows.days.map((r) => [r.day, r]));
  for (const day of daily.days) {
    const r = perDay.get(day.date);
    expect(
      { discounts: day.discounts, patients: day.patients, average_bill: day.average_bill },
      `${label}: revenue on ${day.date}`,
    ).toEqual({
      discounts: Number(r?.discounts ?? 0) / 100,
      patients: Number(r?.patients ?? 0),
      average_bill: r ? Math.round(Math.round(Number(r.billed) / Number(r.bills))) / 100 : 0,
    });
  }
  expect(daily.totals.patients, `${label}: revenue patients`).toBe(rows.patients);
  const totals = await billedTotals(d, org(), bounds[0]!.start, bounds[bounds.length - 1]!.end);
  expect(daily.totals.bills, `${label}: revenue bills`).toBe(totals.bills);
  expect(daily.totals.discounts, `${label}: revenue discounts`).toBe(totals.discount_paise / 100);
  const screen = await revenueAnalytics(d, org(), { from, to });
  expect(screen.cards.patients.current).toBe(rows.patients);
  expect(screen.cards.average_bill.current).toBe(Math.round(totals.amount_paise / totals.bills) / 100);
  const doctorRows = await billedByDoctor(d, org(), bounds[0]!.start, bounds[bounds.length - 1]!.end);
  expect(
    sorted(screen.by_doctor.map((r) => ({ doctor_id: r.doctor_id, amount: r.amount, bills: r.bills }))),
    `${label}: revenue by doctor`,
  ).toEqual(
    sorted(
      doctorRows.map((r) => ({
        doctor_id: r.doctor_id === null ? null : Number(r.doctor_id),
        amount: Number(r.amount_paise) / 100,
        bills: Number(r.bills),
      })),
    ),
  );
}

const inTransaction = (read: (trx: Db) => Promise<void>) =>
  db()
    .transaction()
    .execute((trx) => read(trx));

const count = async (table: 'rollup_discounts' | 'rollup_revenue' | 'rollup_doctor') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .where('organization_id', '=', org())
        .executeTakeFirstOrThrow()
    ).n,
  );

async function wholeRange(): Promise<[string, string]> {
  const w = (await windows(db()))[0]!;
  return [w.fromUtc, w.toUtc];
}

async function moneyRows() {
  const out: Record<string, string[]> = {};
  for (const t of ['rollup_discounts', 'rollup_revenue', 'rollup_doctor'] as const)
    out[t] = sorted(await db().selectFrom(t).selectAll().where('organization_id', '=', org()).execute());
  return out;
}

describe('money rollups rebuilt per lab day', () => {
  it('a stale period is read from the rows; a reader rebuilds it, then reads the rollups', async () => {
    expect(await count('rollup_discounts')).toBe(0);
    await inTransaction((trx) => expectAsRows(trx, 'all stale'));
    expect(await count('rollup_discounts')).toBe(0);
    await expectAsRows(db(), 'refreshed');
    const [fromUtc, toUtc] = await wholeRange();
    expect((await planDays(db(), org(), fromUtc, toUtc)).raw).toEqual([]);
    for (const t of ['rollup_discounts', 'rollup_revenue', 'rollup_doctor'] as const)
      expect(await count(t), t).toBeGreaterThan(DAYS - 2);
    await inTransaction((trx) => expectAsRows(trx, 'fresh'));
  });

  it("each day's money rollups are a pure function of its rows: rebuilt from scratch they are the same", async () => {
    const before = await moneyRows();
    const [fromUtc, toUtc] = await wholeRange();
    await restartRollups(db(), org());
    expect(await count('rollup_revenue')).toBe(0);
    expect(await refreshRollups(db(), org(), fromUtc, toUtc)).toBeGreaterThan(DAYS - 2);
    expect(await moneyRows()).toEqual(before);
  });

  it("edits to a past day's discounts, maker, doctor and patient mark it stale, and the figures follow", async () => {
    const live = await db()
      .selectFrom('bills')
      .select(['id', 'created_at'])
      .where('organization_id', '=', org())
      .where('cancelled_at', 'is', null)
      .orderBy('id')
      .execute();
    const [b1, b2, b3, b4, b5] = live.map((b) => b.id);
    await db()
      .updateTable('bills')
      .set({ discount_amount_paise: 4321, final_amount_paise: 98_765, total_before_discount_paise: 103_086 })
      .where('id', '=', b1!)
      .execute();
    await db().updateTable('bill_items').set({ discount_amount_paise: 777 }).where('bill_id', '=', b2!).execute();
    await db().updateTable('bills').set({ created_by: makers[1]! }).where('id', '=', b3!).execute();
    await db().updateTable('bills').set({ created_by: null, doctor_id: doctors[2]! }).where('id', '=', b4!).execute();
    const other = await db()
      .selectFrom('patients')
      .select('id')
      .where('organization_id', '=', org())
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await db().updateTable('bills').set({ patient_id: other.id }).where('id', '=', b5!).execute();
    const [fromUtc, toUtc] = await wholeRange();
    expect((await planDays(db(), org(), fromUtc, toUtc)).raw.length).toBeGreaterThan(0);
    await inTransaction((trx) => expectAsRows(trx, 'after edits, stale'));
    await expectAsRows(db(), 'after edits, refreshed');
    expect((await planDays(db(), org(), fromUtc, toUtc)).raw).toEqual([]);
  });

  it('a change of time zone moves the lab days: the money rollups are rebuilt on the new bounds', async () => {
    const res = await lab.admin.put('/api/settings', { timezone: 'America/New_York' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await count('rollup_discounts')).toBe(0);
    await inTransaction((trx) => expectAsRows(trx, 'New York, stale'));
    await expectAsRows(db(), 'New York, refreshed');
    expect(await count('rollup_discounts')).toBeGreaterThan(DAYS - 2);
    await inTransaction((trx) => expectAsRows(trx, 'New York, fresh'));
  });
});
