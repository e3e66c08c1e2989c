import type { Db } from '../db/connection.js';
import { readsTogether } from '../db/dialect.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import type { PAYMENT_METHODS } from '../../shared/billing.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import type { RevenueDaily, RevenueDay, RevenueQuery, RevenueTotals } from '../../shared/schemas/revenue.js';
import { organizationTimezone } from '../settings/service.js';
import { billedPatients, ledgerTotalsByDay } from '../payments/repository.js';
import { billedTotalsSummed, billsPerDaySummed, dayBoundsOf } from './money.js';

/**
 * Revenue in the lab's calendar days, from the ledger only. A method's column is the
 * money received by that method on the day (payments counted on their value date: a cheque on
 * the day it cleared, never when it bounced); refunds are their own column; total = received less
 * refunds. Discounts, patients and the average bill come from the bills made that day.
 */

type MethodKey = (typeof PAYMENT_METHODS)[number];
interface DayPaise {
  received: Record<MethodKey, number>;
  refunds: number;
  discounts: number;
  billed: number;
  bills: number;
  /** Distinct patients billed. */
  patients: number;
}

const emptyDay = (): DayPaise => ({
  received: { cash: 0, card: 0, upi: 0, bank_transfer: 0, cheque: 0, insurance: 0 },
  refunds: 0,
  discounts: 0,
  billed: 0,
  bills: 0,
  patients: 0,
});

export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to && out.length < 400; d = addDays(d, 1)) out.push(d);
  return out;
}

export async function revenueRange(db: Db, organizationId: number, q: RevenueQuery) {
  const timeZone = await organizationTimezone(db, organizationId);
  const to = q.to ?? (q.from && q.from > localDate(timeZone) ? q.from : localDate(timeZone));
  const from = q.from ?? addDays(to, -29);
  return { timeZone, from, to };
}

const rupees = (paise: number) => Math.round(paise) / 100;

/** Money received per method, refunds, and net: what the ledger alone gives a day. */
function collected(d: DayPaise) {
  const received = Object.values(d.received).reduce((a, b) => a + b, 0);
  return {
    total: rupees(received - d.refunds),
    cash: rupees(d.received.cash),
    card: rupees(d.received.card),
    upi: rupees(d.received.upi),
    bank_transfer: rupees(d.received.bank_transfer),
    cheque: rupees(d.received.cheque),
    insurance: rupees(d.received.insurance),
    refunds: rupees(d.refunds),
  };
}

function toDay(d: DayPaise) {
  return {
    ...collected(d),
    discounts: rupees(d.discounts),
    patients: d.patients,
    average_bill: d.bills ? rupees(Math.round(d.billed / d.bills)) : 0,
  };
}

/** The ledger's rows of the lab days from..to, summed per day and over all. */
async function ledgerDays(db: Db, organizationId: number, from: string, to: string) {
  const days = new Map(daysBetween(from, to).map((d) => [d, emptyDay()]));
  const all = emptyDay();
  for (const r of await ledgerTotalsByDay(db, organizationId, from, to)) {
    const day = days.get(r.value_date!);
    if (!day) continue;
    const amount = Number(r.amount_paise);
    const method = r.method as MethodKey;
    if (r.kind === 'refund') {
      day.refunds += -amount;
      all.refunds += -amount;
    } else if (method in day.received) {
      day.received[method] += amount;
      all.received[method] += amount;
    }
  }
  return { days, all };
}

/**
 * Money received per lab day by method, refunds and net, from the ledger only (the Daily Collection
 * report): revenueDaily without the bills of the days, which a year of a busy lab makes slow.
 */
export async function collectionDaily(db: Db, organizationId: number, q: RevenueQuery) {
  const { from, to } = await revenueRange(db, organizationId, q);
  const { days, all } = await ledgerDays(db, organizationId, from, to);
  return {
    from,
    to,
    days: [...days].map(([date, d]) => ({ date, ...collected(d) })),
    totals: collected(all),
  };
}

/** GET /api/revenue/daily: one row per lab day from `from` to `to`, and their totals. */
export async function revenueDaily(db: Db, organizationId: number, q: RevenueQuery): Promise<RevenueDaily> {
  const { timeZone, from, to } = await revenueRange(db, organizationId, q);
  const { days, all } = await ledgerDays(db, organizationId, from, to);
  // The bills of each lab day from the rollups and today's rows (a year of a busy lab is 110,000 bills).
  const names = [...days.keys()];
  const bounds = names.length ? dayBoundsOf(timeZone, names[0]!, addDays(names[names.length - 1]!, 1)) : [];
  const bills = await billsPerDaySummed(db, organizationId, bounds);
  for (const b of bills.days) {
    const day = days.get(b.day);
    if (!day) continue;
    for (const t of [day, all]) {
      t.discounts += Number(b.discounts);
      t.billed += Number(b.billed);
      t.bills += Number(b.bills);
    }
    day.patients = Number(b.patients);
  }
  all.patients = bills.patients;
  const totals: RevenueTotals = { ...toDay(all), bills: all.bills };
  return {
    from,
    to,
    days: [...days].map(([date, d]): RevenueDay => ({ date, ...toDay(d) })),
    totals,
  };
}

/**
 * revenueDaily's totals alone (what /revenue's cards compare): the ledger per day, the period's
 * bills summed once (a covering index) and one distinct count of the period's patients, instead
 * of every lab day's bills.
 */
export async function revenueTotals(db: Db, organizationId: number, q: RevenueQuery): Promise<RevenueTotals> {
  const { timeZone, from, to } = await revenueRange(db, organizationId, q);
  const list = daysBetween(from, to);
  if (list.length === 0) return { ...toDay(emptyDay()), bills: 0 };
  const fromUtc = startOfLocalDayUtc(timeZone, list[0]!).toISOString();
  const toUtc = startOfLocalDayUtc(timeZone, addDays(list[list.length - 1]!, 1)).toISOString();
  const [{ all }, t, patients] = await readsTogether(db, [
    () => ledgerDays(db, organizationId, from, to),
    () => billedTotalsSummed(db, organizationId, fromUtc, toUtc),
    () => billedPatients(db, organizationId, fromUtc, toUtc),
  ] as const);
  all.discounts += t.discount_paise;
  all.billed += t.amount_paise;
  all.bills += t.bills;
  all.patients = patients;
  return { ...toDay(all), bills: all.bills };
}

export const REVENUE_COLUMNS = [
  ['date', 'Date'],
  ['total', 'Total (net)'],
  ['cash', 'Cash'],
  ['card', 'Card'],
  ['upi', 'UPI'],
  ['bank_transfer', 'Bank transfer'],
  ['cheque', 'Cheque'],
  ['insurance', 'Insurance'],
  ['refunds', 'Refunds'],
  ['discounts', 'Bill discounts'],
  ['patients', 'Patients'],
  ['average_bill', 'Average bill'],
] as const;

/** The revenue report as rows of cells (the exports' one source), the totals row last; audited as an export. */
export async function revenueReportRows(db: Db, actor: Actor, q: RevenueQuery, format: string) {
  const report = await revenueDaily(db, actor.organizationId, q);
  const rows: (string | number)[][] = report.days.map((d) => REVENUE_COLUMNS.map(([k]) => d[k]));
  rows.push(REVENUE_COLUMNS.map(([k]) => (k === 'date' ? 'Total' : report.totals[k])));
  await writeAudit(db, actor, {
    action: 'export',
    entity: 'revenue',
    entityId: `${report.from}..${report.to}`,
    newValues: { format, from: report.from, to: report.to, days: report.days.length },
  });
  return { report, header: REVENUE_COLUMNS.map(([, label]) => label), rows };
}
