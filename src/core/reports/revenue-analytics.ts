import type { Db } from '../db/connection.js';
import { readsTogether } from '../db/dialect.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';
import type { RevenueAnalytics, RevenueQuery } from '../../shared/schemas/revenue.js';
import { getOrganization } from '../settings/service.js';
import { formatLabDay } from '../pdf/format.js';
import { billedByDoctorSummed } from './money.js';
import { daysBetween, revenueRange, revenueTotals } from './revenue.js';
import { billedByTestSummed } from './summary.js';

/**
 * The Revenue screen's analytics: the period's money (the payments ledger) against the previous
 * period, and what was billed by category (the revenue-by-test rollup of ./summary.ts) and by
 * referring doctor. A report across features, so it lives with the reports.
 */

const rupees = (paise: number) => Math.round(paise) / 100;

/**
 * Billed per category (a test's catalogue category, Profiles, Packages) of live bills made in a UTC
 * window: the per-item figures of Revenue by Test (its rollup and rows, src/core/reports/summary.ts)
 * added up by category.
 */
async function billedCategories(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const out = new Map<string, { category: string; amount_paise: number; items: number }>();
  for (const l of await billedByTestSummed(db, { organizationId, fromUtc, toUtc })) {
    const category =
      l.item_type === 'test' ? l.category || 'Uncategorised' : l.item_type === 'profile' ? 'Profiles' : 'Packages';
    const c = out.get(category) ?? { category, amount_paise: 0, items: 0 };
    c.amount_paise += Number(l.total_paise);
    c.items += Number(l.count);
    out.set(category, c);
  }
  return [...out.values()];
}

/** Billed per referring doctor, no doctor first, then by id: ties in the sort by amount keep that order on both engines. */
async function doctorsInOrder(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const rows = await billedByDoctorSummed(db, organizationId, fromUtc, toUtc);
  const key = (id: number | null) => (id === null ? -Infinity : Number(id));
  return rows.sort((a, b) => key(a.doctor_id) - key(b.doctor_id));
}

const change = (current: number, previous: number) => ({
  current,
  previous,
  change_percent: previous === 0 ? null : Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10,
});

/** Cards against the previous period of the same length, analytics by category and doctor, and the forecast. */
export async function revenueAnalytics(db: Db, organizationId: number, q: RevenueQuery): Promise<RevenueAnalytics> {
  const { timeZone, from, to } = await revenueRange(db, organizationId, q);
  const length = daysBetween(from, to).length;
  const previousTo = addDays(from, -1);
  const previousFrom = addDays(from, -length);
  const fromUtc = startOfLocalDayUtc(timeZone, from).toISOString();
  const toUtc = startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString();
  const [cur, prev, categories, doctors, org] = await readsTogether(db, [
    () => revenueTotals(db, organizationId, { from, to }),
    () => revenueTotals(db, organizationId, { from: previousFrom, to: previousTo }),
    () => billedCategories(db, organizationId, fromUtc, toUtc),
    () => doctorsInOrder(db, organizationId, fromUtc, toUtc),
    () => getOrganization(db, organizationId),
  ] as const);
  const day = (d: string) => formatLabDay(d, org.date_format);
  // Projected from the period's net in paise, not from the rounded daily average: a 30-day period
  // projects to its own net exactly (₹1,999.25 / 30 days -> ₹1,999.25, not 30 x ₹66.64 = ₹1,999.20).
  const netPaise = Math.round(cur.total * 100);
  const projected = (days: number) => Math.round((netPaise * days) / length) / 100;
  const dailyAverage = projected(1);
  return {
    from,
    to,
    previous_from: previousFrom,
    previous_to: previousTo,
    cards: {
      total: change(cur.total, prev.total),
      patients: change(cur.patients, prev.patients),
      average_bill: change(cur.average_bill, prev.average_bill),
      refunds: change(cur.refunds, prev.refunds),
    },
    by_category: categories
      .map((c) => ({ category: c.category, amount: rupees(Number(c.amount_paise)), items: Number(c.items) }))
      .sort((a, b) => b.amount - a.amount || a.category.localeCompare(b.category)),
    by_doctor: doctors
      .map((d) => ({
        doctor_id: d.doctor_id,
        doctor_name: d.doctor_id === null ? 'No referring doctor' : (d.name ?? `Doctor ${d.doctor_id}`),
        amount: rupees(Number(d.amount_paise)),
        bills: Number(d.bills),
      }))
      .sort((a, b) => b.amount - a.amount),
    forecast: {
      method: `Projection, not a promise: the average net revenue per day over the ${length} days from ${day(from)} to ${day(to)} (₹${dailyAverage.toFixed(2)} a day), times 7 and 30 days, from the period's net to the paisa. It assumes the coming days are like these.`,
      basis_days: length,
      daily_average: dailyAverage,
      next_7_days: projected(7),
      next_30_days: projected(30),
    },
  };
}
