import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { aggregatesPerDay, tableUsingIndex } from '../db/dialect.js';
import { billedByTest, discountsByUser, workloadByTest, type Window } from './repository.js';
import { billedByDoctor } from '../payments/repository.js';

/**
 * Readers of the summaries of migration 25: a period [fromUtc, toUtc) is the whole UTC
 * days inside it, read from the per-day summary, plus the partial days at its edges, read from the
 * rows with the same query the summary is the sum of. The answer is the one the rows give, at the
 * cost of at most two days of rows whatever the period.
 */

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface SplitWindow {
  /** Partial days (or the whole period when it holds no whole UTC day), read from rows. */
  edges: { fromUtc: string; toUtc: string }[];
  /** Whole UTC days [from, to) as 'YYYY-MM-DD', read from the summary; null when none. */
  days: { from: string; to: string } | null;
}

export function splitWindow(fromUtc: string, toUtc: string): SplitWindow {
  const f = Date.parse(fromUtc);
  const t = Date.parse(toUtc);
  const d0 = Math.ceil(f / DAY_MS) * DAY_MS;
  const d1 = Math.floor(t / DAY_MS) * DAY_MS;
  if (!(d1 > d0)) return { edges: t > f ? [{ fromUtc, toUtc }] : [], days: null };
  const edges: SplitWindow['edges'] = [];
  if (f < d0) edges.push({ fromUtc, toUtc: iso(d0) });
  if (d1 < t) edges.push({ fromUtc: iso(d1), toUtc });
  return { edges, days: { from: iso(d0).slice(0, 10), to: iso(d1).slice(0, 10) } };
}

/** The month after 'YYYY-MM'. */
const nextMonth = (m: string) => {
  const y = Number(m.slice(0, 4));
  const n = Number(m.slice(5, 7));
  return n === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${m.slice(0, 4)}-${String(n + 1).padStart(2, '0')}`;
};

/**
 * Whole UTC days [from, to) read from summaries (migration 32): the whole UTC months inside them
 * from a monthly roll-up (`month` in [from, to) as 'YYYY-MM'), the days outside those months from
 * the daily table (`day` in [from, to)). A year is about eleven month rows and thirty day rows per key.
 */
export interface SummaryPart {
  monthly: boolean;
  /** The column the range is on: day or month. */
  column: 'day' | 'month';
  from: string;
  to: string;
}

export function summaryParts(days: { from: string; to: string }): SummaryPart[] {
  const firstMonth = days.from.endsWith('-01') ? days.from.slice(0, 7) : nextMonth(days.from.slice(0, 7));
  const endMonth = days.to.slice(0, 7);
  if (!(firstMonth < endMonth)) return [{ monthly: false, column: 'day', from: days.from, to: days.to }];
  const parts: SummaryPart[] = [{ monthly: true, column: 'month', from: firstMonth, to: endMonth }];
  if (days.from < `${firstMonth}-01`)
    parts.push({ monthly: false, column: 'day', from: days.from, to: `${firstMonth}-01` });
  if (`${endMonth}-01` < days.to) parts.push({ monthly: false, column: 'day', from: `${endMonth}-01`, to: days.to });
  return parts;
}

const num = (v: unknown) => Number(v ?? 0);
const maxText = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : b > a ? b : a);

/**
 * The rows of several parts (edges and summaries) folded into one row per key, in the order the keys
 * first come: a key's first row is kept with `first`'s columns over it (its id as a number) and each of
 * `sums` as a number; a later row adds its `sums` to it and `combine` merges its other columns.
 */
function mergeSums<R extends object, K extends keyof R>(
  rows: R[],
  keyOf: (r: R) => string | number,
  sums: readonly K[],
  first: (r: R) => Partial<R>,
  combine?: (into: R, r: R) => void,
): R[] {
  const out = new Map<string | number, R>();
  for (const r of rows) {
    const key = keyOf(r);
    const e = out.get(key);
    if (!e) {
      const row: R = { ...r, ...first(r) };
      for (const c of sums) row[c] = num(r[c]) as R[K];
      out.set(key, row);
    } else {
      combine?.(e, r);
      for (const c of sums) e[c] = (num(e[c]) + num(r[c])) as R[K];
    }
  }
  return [...out.values()];
}

/** A nullable id column as a number (SQL drivers may give it as text). */
const idOrNull = (v: number | null) => (v === null ? null : Number(v));

/** The billed summary a part reads (the monthly roll-up has the daily table's columns, month for day). */
const billedSource = (p: SummaryPart) =>
  (p.monthly ? 'report_billed_monthly as s' : 'report_billed_daily as s') as 'report_billed_daily as s';
const workloadSource = (p: SummaryPart) =>
  (p.monthly ? 'report_workload_monthly as s' : 'report_workload_daily as s') as 'report_workload_daily as s';

export type BilledByTestRow = Awaited<ReturnType<typeof billedByTest>>[number];

/** billedByTest for any period: the summary's whole days plus the edges' rows. */
export async function billedByTestSummed(db: Db, w: Window): Promise<BilledByTestRow[]> {
  const { edges, days } = splitWindow(w.fromUtc, w.toUtc);
  const parts: BilledByTestRow[][] = await Promise.all(edges.map((e) => billedByTest(db, { ...w, ...e })));
  if (days) {
    const testId = sql<number | null>`CASE WHEN s.test_id = 0 THEN NULL ELSE s.test_id END`;
    for (const p of summaryParts(days))
      parts.push(
        await db
          .selectFrom(billedSource(p))
          .leftJoin('tests as t', 't.id', 's.test_id')
          .select([
            's.item_type',
            testId.as('test_id'),
            sql<string>`MAX(s.name)`.as('name'),
            sql<string | null>`MAX(t.category)`.as('category'),
            sql<number>`SUM(s.qty)`.as('count'),
            sql<number>`SUM(s.total_paise)`.as('total_paise'),
          ])
          .where('s.organization_id', '=', w.organizationId)
          .where(sql.ref(`s.${p.column}`), '>=', p.from)
          .where(sql.ref(`s.${p.column}`), '<', p.to)
          .where('s.lines', '>', 0)
          .groupBy(['s.item_type', 's.test_id', sql`CASE WHEN s.test_id = 0 THEN s.name ELSE '' END`])
          .execute(),
      );
  }
  return mergeSums(
    parts.flat(),
    (r) => {
      const testId = idOrNull(r.test_id);
      return `${r.item_type}\u0000${testId ?? ''}\u0000${testId === null ? r.name : ''}`;
    },
    ['count', 'total_paise'],
    (r) => ({ test_id: idOrNull(r.test_id) }),
    (e, r) => {
      e.name = maxText(e.name, r.name)!;
      e.category = maxText(e.category, r.category);
    },
  );
}

export type WorkloadRow = Awaited<ReturnType<typeof workloadByTest>>[number];

/** workloadByTest for any period: the summary's whole days plus the edges' rows. */
export async function workloadByTestSummed(db: Db, w: Window): Promise<WorkloadRow[]> {
  const { edges, days } = splitWindow(w.fromUtc, w.toUtc);
  const parts: WorkloadRow[][] = await Promise.all(edges.map((e) => workloadByTest(db, { ...w, ...e })));
  if (days) {
    for (const p of summaryParts(days))
      parts.push(
        await db
          .selectFrom(workloadSource(p))
          .innerJoin('tests as t', 't.id', 's.test_id')
          .select([
            's.test_id',
            sql<string>`MAX(t.name)`.as('test_name'),
            sql<string | null>`MAX(t.category)`.as('category'),
            sql<number>`SUM(s.ordered)`.as('ordered'),
            sql<number>`SUM(s.resulted)`.as('resulted'),
            sql<number>`SUM(s.verified)`.as('verified'),
            sql<number>`SUM(s.rejected)`.as('rejected'),
          ])
          .where('s.organization_id', '=', w.organizationId)
          .where(sql.ref(`s.${p.column}`), '>=', p.from)
          .where(sql.ref(`s.${p.column}`), '<', p.to)
          .groupBy('s.test_id')
          .execute(),
      );
  }
  return mergeSums(
    parts.flat(),
    (r) => Number(r.test_id),
    ['ordered', 'resulted', 'verified', 'rejected'],
    (r) => ({ test_id: Number(r.test_id) }),
  ).filter((r) => num(r.ordered) > 0);
}

export type DiscountsRow = Awaited<ReturnType<typeof discountsByUser>>[number];

/** discountsByUser for any period: migration 30's per-day summary for the whole days plus the edges' rows. */
export async function discountsByUserSummed(db: Db, w: Window): Promise<DiscountsRow[]> {
  const { edges, days } = splitWindow(w.fromUtc, w.toUtc);
  const parts: DiscountsRow[][] = await Promise.all(edges.map((e) => discountsByUser(db, { ...w, ...e })));
  if (days) {
    const createdBy = sql<number | null>`CASE WHEN s.created_by = 0 THEN NULL ELSE s.created_by END`;
    parts.push(
      await db
        .selectFrom('report_discounts_daily as s')
        .leftJoin('users as u', (j) => j.onRef('u.id', '=', 's.created_by'))
        .select([
          createdBy.as('created_by'),
          sql<string | null>`MAX(CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END)`.as(
            'name',
          ),
          sql<number>`SUM(s.bills)`.as('bills'),
          sql<number>`SUM(s.discounted_bills)`.as('discounted_bills'),
          sql<number>`SUM(s.line_paise)`.as('line_paise'),
          sql<number>`SUM(s.bill_paise)`.as('bill_paise'),
          sql<number>`SUM(s.before_paise + s.line_paise)`.as('gross_paise'),
        ])
        .where('s.organization_id', '=', w.organizationId)
        .where('s.day', '>=', days.from)
        .where('s.day', '<', days.to)
        .where('s.bills', '>', 0)
        .groupBy('s.created_by')
        .execute(),
    );
  }
  return mergeSums(
    parts.flat(),
    (r) => String(idOrNull(r.created_by) ?? ''),
    ['bills', 'discounted_bills', 'line_paise', 'bill_paise', 'gross_paise'],
    (r) => ({ created_by: idOrNull(r.created_by) }),
    (e, r) => {
      e.name = e.name ?? r.name;
    },
  );
}

/** Whether an instant is on a quarter hour (every lab day's bound is: whole-quarter-hour offsets). */
export const onSlot = (isoText: string) => /T\d\d:(00|15|30|45):00\.000Z$/.test(isoText);

/**
 * The 15-minute slots summed per lab day, each day given by its UTC bounds [start, end) (on slots):
 * samples collected and rejected, results verified, what live bills charged.
 */
export async function slotsPerDay(db: Db, organizationId: number, days: { day: string; start: string; end: string }[]) {
  if (days.length === 0) return [];
  type Day = {
    day: string;
    samples_collected: number;
    samples_rejected: number;
    results_verified: number;
    billed_paise: number;
  };
  // Each day's slots summed on its range of the primary key: a join grouped by day sorted the
  // period's slots in a temporary tree first (SQLite) or scanned them per day (PostgreSQL).
  const out: Day[] = [];
  for (const { day, values } of await aggregatesPerDay(
    db,
    days.map((d) => ({ day: d.day, start: d.start.slice(0, 16), end: d.end.slice(0, 16) })),
    [
      sql`count(*)`,
      sql`sum(r.samples_collected)`,
      sql`sum(r.samples_rejected)`,
      sql`sum(r.results_verified)`,
      sql`sum(r.billed_paise)`,
    ],
    sql`FROM report_slots r WHERE r.organization_id = ${organizationId} AND r.slot >= d.s AND r.slot < d.e`,
  )) {
    const [n, collected, rejected, verified, billed] = values;
    if (n)
      out.push({
        day,
        samples_collected: collected!,
        samples_rejected: rejected!,
        results_verified: verified!,
        billed_paise: billed!,
      });
  }
  return out;
}

/** Billed lines and paise of live bills per catalogue category over whole UTC days. */
export async function billedCategoriesOnDays(db: Db, organizationId: number, days: { from: string; to: string }) {
  const category = sql<string | null>`coalesce(t.category, p.category, k.category)`;
  const out = new Map<string | null, { category: string | null; lines: number; paise: number }>();
  for (const part of summaryParts(days))
    for (const r of await db
      .selectFrom(billedSource(part))
      .leftJoin('tests as t', (j) => j.onRef('t.id', '=', 's.test_id').on('s.item_type', '=', 'test'))
      .leftJoin('test_profiles as p', (j) => j.onRef('p.id', '=', 's.profile_id').on('s.item_type', '=', 'profile'))
      .leftJoin('test_packages as k', (j) => j.onRef('k.id', '=', 's.package_id').on('s.item_type', '=', 'package'))
      .select([
        category.as('category'),
        sql<number>`SUM(s.lines)`.as('lines'),
        sql<number>`SUM(s.total_paise)`.as('paise'),
      ])
      .where('s.organization_id', '=', organizationId)
      .where(sql.ref(`s.${part.column}`), '>=', part.from)
      .where(sql.ref(`s.${part.column}`), '<', part.to)
      .where('s.lines', '>', 0)
      .groupBy(category)
      .execute()) {
      const e = out.get(r.category) ?? { category: r.category, lines: 0, paise: 0 };
      e.lines += num(r.lines);
      e.paise += num(r.paise);
      out.set(r.category, e);
    }
  return [...out.values()];
}

/** Tests ordered on samples collected over whole UTC days, per test. */
export async function collectedTestsOnDays(db: Db, organizationId: number, days: { from: string; to: string }) {
  const out = new Map<number, { test_id: number; test_name: string; n: number }>();
  for (const part of summaryParts(days))
    for (const r of await db
      .selectFrom(workloadSource(part))
      .innerJoin('tests as t', 't.id', 's.test_id')
      .select(['t.id as test_id', 't.name as test_name', sql<number>`SUM(s.collected)`.as('n')])
      .where('s.organization_id', '=', organizationId)
      .where(sql.ref(`s.${part.column}`), '>=', part.from)
      .where(sql.ref(`s.${part.column}`), '<', part.to)
      .groupBy(['t.id', 't.name'])
      .execute()) {
      const id = Number(r.test_id);
      const e = out.get(id) ?? { test_id: id, test_name: r.test_name, n: 0 };
      e.n += num(r.n);
      out.set(id, e);
    }
  return [...out.values()].filter((r) => r.n > 0);
}

/**
 * The Analytics histogram of turnaround in whole minutes of the results verified in [fromUtc, toUtc):
 * migration 32's per-day and per-month counts for the whole UTC days, migration 28's rows for the
 * partial days at the edges. Sorted by minutes.
 */
export async function tatHistogramSummed(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const { edges, days } = splitWindow(fromUtc, toUtc);
  const out = new Map<number, number>();
  const add = (rows: { minutes: number; n: number }[]) => {
    for (const r of rows) out.set(Number(r.minutes), (out.get(Number(r.minutes)) ?? 0) + num(r.n));
  };
  // A partial day's rows through migration 33's (lab, verified_at, minutes) index.
  for (const e of edges)
    add(
      (
        await sql<{ minutes: number; n: number }>`SELECT minutes, count(*) AS n
          FROM ${tableUsingIndex(db, 'report_turnaround', 'report_turnaround_verified')}
          WHERE organization_id = ${organizationId} AND verified_at >= ${e.fromUtc} AND verified_at < ${e.toUtc}
          GROUP BY minutes`.execute(db)
      ).rows,
    );
  if (days)
    for (const p of summaryParts(days))
      add(
        await db
          .selectFrom((p.monthly ? 'report_tat_monthly as s' : 'report_tat_daily as s') as 'report_tat_daily as s')
          .select(['s.minutes', sql<number>`SUM(s.n)`.as('n')])
          .where('s.organization_id', '=', organizationId)
          .where(sql.ref(`s.${p.column}`), '>=', p.from)
          .where(sql.ref(`s.${p.column}`), '<', p.to)
          .groupBy('s.minutes')
          .execute(),
      );
  return [...out]
    .filter(([, n]) => n !== 0)
    .map(([minutes, n]) => ({ minutes, n }))
    .sort((a, b) => a.minutes - b.minutes);
}

export type DoctorRow = Awaited<ReturnType<typeof billedByDoctor>>[number];

/**
 * billedByDoctor for any period (live bills per referring doctor: how many, final amount, bill
 * discounts): migration 32's per-day and per-month summaries plus the edges' rows.
 */
export async function billedByDoctorSummed(db: Db, w: Window): Promise<DoctorRow[]> {
  const { edges, days } = splitWindow(w.fromUtc, w.toUtc);
  const parts: DoctorRow[][] = await Promise.all(
    edges.map((e) => billedByDoctor(db, w.organizationId, e.fromUtc, e.toUtc)),
  );
  if (days) {
    const doctorId = sql<number | null>`CASE WHEN s.doctor_id = 0 THEN NULL ELSE s.doctor_id END`;
    for (const p of summaryParts(days))
      parts.push(
        await db
          .selectFrom(
            (p.monthly ? 'report_doctor_monthly as s' : 'report_doctor_daily as s') as 'report_doctor_daily as s',
          )
          .leftJoin('users as d', 'd.id', 's.doctor_id')
          .select([
            doctorId.as('doctor_id'),
            sql<string | null>`MAX(CASE WHEN d.id IS NULL THEN NULL ELSE d.first_name || ' ' || d.last_name END)`.as(
              'name',
            ),
            sql<number>`SUM(s.final_paise)`.as('amount_paise'),
            sql<number>`SUM(s.discount_paise)`.as('discount_paise'),
            sql<number>`SUM(s.bills)`.as('bills'),
          ])
          .where('s.organization_id', '=', w.organizationId)
          .where(sql.ref(`s.${p.column}`), '>=', p.from)
          .where(sql.ref(`s.${p.column}`), '<', p.to)
          .where('s.bills', '>', 0)
          .groupBy('s.doctor_id')
          .execute(),
      );
  }
  // In the order the rows' GROUP BY gives on SQLite (no doctor first, then by id): ties in the
  // caller's sort by amount keep it.
  return mergeSums(
    parts.flat(),
    (r) => String(idOrNull(r.doctor_id) ?? ''),
    ['amount_paise', 'discount_paise', 'bills'],
    (r) => ({ doctor_id: idOrNull(r.doctor_id) }),
    (e, r) => {
      e.name = e.name ?? r.name;
    },
  )
    .filter((r) => r.bills > 0)
    .sort((a, b) => (a.doctor_id ?? -Infinity) - (b.doctor_id ?? -Infinity));
}
