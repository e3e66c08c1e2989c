import type { Db } from '../db/connection.js';
import { billedByDoctor, billedPatients, billedTotals, billsOfDays } from '../payments/repository.js';
import { discountsByUser } from './bills-repository.js';
import type { Window } from './repository.js';
import { freshPlan, type DayPlan } from './rollups/days.js';

export { dayBoundsOf } from './rollups/days.js';
import { discountsRollup, doctorRollup, revenueDaysRollup } from './rollups/read-money.js';
import { mergeSums, num } from './summary.js';

/**
 * The money figures that read a rollup at a year (discounts, revenue per day, revenue per doctor):
 * a period's fresh whole lab days before today from the rollups of migration 51, the rest (its
 * edges, today, stale days) from the rows with the query the rollup is the sum of, added together.
 * Each answers what its reader of the rows answers for the same period.
 */

const idOrNull = (v: number | null) => (v === null ? null : Number(v));
const maxText = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : b > a ? b : a);

export type DiscountsRow = Awaited<ReturnType<typeof discountsByUser>>[number];

/** discountsByUser for any period. */
export async function discountsByUserSummed(db: Db, w: Window): Promise<DiscountsRow[]> {
  const plan = await freshPlan(db, w.organizationId, w.fromUtc, w.toUtc);
  const parts: DiscountsRow[][] = await Promise.all(plan.raw.map((e) => discountsByUser(db, { ...w, ...e })));
  parts.push(await discountsRollup(db, w.organizationId, plan.runs));
  return mergeSums(
    parts.flat(),
    (r) => idOrNull(r.created_by) ?? '',
    ['bills', 'discounted_bills', 'line_paise', 'bill_paise', 'gross_paise'],
    (r) => ({ created_by: idOrNull(r.created_by) }),
    (e, r) => {
      e.name = maxText(e.name, r.name);
    },
  );
}

type LabDayBounds = { day: string; start: string; end: string };

/** The days of `days` that lie in one of the plan's ranges read from the rows. */
const daysReadFromRows = (plan: DayPlan, days: LabDayBounds[]) =>
  days.filter((d) => plan.raw.some((r) => r.fromUtc <= d.start && d.end <= r.toUtc));

/**
 * billsPerDay (payments' repository) for consecutive whole lab days: each day's live bills, bill
 * discounts and final amounts, its distinct patients, and the distinct patients of all the days
 * (a count over the rows: distinct patients of a period are not a sum of days).
 */
export async function billsPerDaySummed(db: Db, organizationId: number, days: LabDayBounds[]) {
  if (days.length === 0) return { days: [], patients: 0 };
  const fromUtc = days[0]!.start;
  const toUtc = days[days.length - 1]!.end;
  const plan = await freshPlan(db, organizationId, fromUtc, toUtc);
  const perDay = (await revenueDaysRollup(db, organizationId, plan.runs)).map((r) => ({
    day: r.day,
    bills: num(r.bills),
    patients: num(r.patients),
    discounts: num(r.discount_paise),
    billed: num(r.billed_paise),
  }));
  perDay.push(...(await billsOfDays(db, organizationId, daysReadFromRows(plan, days))));
  return { days: perDay, patients: await billedPatients(db, organizationId, fromUtc, toUtc) };
}

/** billedTotals (live bills of a UTC window: how many, final amounts, bill discounts) for any period. */
export async function billedTotalsSummed(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const plan = await freshPlan(db, organizationId, fromUtc, toUtc);
  const out = { bills: 0, amount_paise: 0, discount_paise: 0 };
  for (const r of await revenueDaysRollup(db, organizationId, plan.runs)) {
    out.bills += num(r.bills);
    out.amount_paise += num(r.billed_paise);
    out.discount_paise += num(r.discount_paise);
  }
  for (const e of plan.raw) {
    const t = await billedTotals(db, organizationId, e.fromUtc, e.toUtc);
    out.bills += t.bills;
    out.amount_paise += t.amount_paise;
    out.discount_paise += t.discount_paise;
  }
  return out;
}

export type DoctorRow = Awaited<ReturnType<typeof billedByDoctor>>[number];

/** billedByDoctor (live bills of a UTC window per referring doctor) for any period. */
export async function billedByDoctorSummed(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const plan = await freshPlan(db, organizationId, fromUtc, toUtc);
  const parts: DoctorRow[][] = await Promise.all(
    plan.raw.map((e) => billedByDoctor(db, organizationId, e.fromUtc, e.toUtc)),
  );
  parts.push(await doctorRollup(db, organizationId, plan.runs));
  return mergeSums(
    parts.flat(),
    (r) => idOrNull(r.doctor_id) ?? '',
    ['amount_paise', 'discount_paise', 'bills'],
    (r) => ({ doctor_id: idOrNull(r.doctor_id) }),
    (e, r) => {
      e.name = maxText(e.name, r.name);
    },
  );
}
