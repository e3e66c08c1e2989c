import type { Analytics, AnalyticsQuery, LiveBoard } from '../../shared/schemas/analytics.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import type { Actor } from '../context.js';
import type { Permission } from '../../shared/roles.js';
import type { Db } from '../db/connection.js';
import { onSnapshot } from '../db/dialect.js';
import { overdueCalibrations } from '../equipment/service-repository.js';
import { openShortages } from '../inventory/alert-repository.js';
import { organizationTimezone } from '../settings/service.js';
import { actorHasPermission } from '../users/service.js';
import {
  awaitingVerification,
  billedByMinuteAndCategory,
  criticalNotCalled,
  distinctPatientsCollected,
  rejectedCollected,
  resultsVerifiedByMinute,
  samplesByStatus,
  samplesCollectedByMinute,
  namesOfOrderedTests,
  openTestsWithTarget,
  verifiedWithTarget,
  testDistribution,
} from './repository.js';
import {
  billedCategoriesRollup,
  billedPerDayRollup,
  dayRollup,
  forEachCount,
  planDays,
  refreshRollups,
  turnaroundRows,
  workloadRollup,
  type DayPlan,
} from '../reports/service.js';

/** How many rows each list of the live board shows (its count is always the full one). */
export const LIVE_LIST_LIMIT = 20;
const UNCATEGORISED = 'Uncategorised';
const rupees = (paise: number) => Math.round(paise) / 100;
const minutesFrom = (fromIso: string, to: Date) =>
  Math.max(0, Math.floor((to.getTime() - Date.parse(fromIso)) / 60000));

/** The lab days from `from` to `to` (inclusive). */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The nearest-rank percentile (0-100) of a histogram of whole minutes. */
export function percentileOf(histogram: readonly { minutes: number; n: number }[], p: number): number | null {
  const sorted = [...histogram].sort((a, b) => a.minutes - b.minutes);
  const total = sorted.reduce((s, h) => s + h.n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const h of sorted) {
    seen += h.n;
    if (seen >= rank) return h.minutes;
  }
  return sorted[sorted.length - 1]!.minutes;
}

/** The tests ordered most on the samples collected in the plan's period: rollup days plus rows. */
async function topTests(db: Db, organizationId: number, plan: DayPlan, limit: number) {
  const counts = new Map<number, { test_id: number; test_name: string; count: number }>();
  const add = (rows: { test_id: number; test_name: string; n: number }[]) => {
    for (const r of rows) {
      const id = Number(r.test_id);
      const e = counts.get(id) ?? { test_id: id, test_name: r.test_name, count: 0 };
      e.count += Number(r.n);
      counts.set(id, e);
    }
  };
  for (const e of plan.raw)
    add(await testDistribution(db, organizationId, e.fromUtc, e.toUtc, Number.MAX_SAFE_INTEGER));
  add((await workloadRollup(db, organizationId, plan.runs)).map((r) => ({ ...r, n: Number(r.collected) })));
  return [...counts.values()]
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count || (a.test_name < b.test_name ? -1 : a.test_name > b.test_name ? 1 : 0))
    .slice(0, limit);
}

/**
 * GET /api/analytics: the last `days` lab days (today included) in the lab's time zone. Revenue is
 * what the range's bills charged per line (after line discounts, before the bill's own discount and
 * tax), cancelled bills excluded; categories are the catalogue items' categories.
 */
export async function analytics(
  db: Db,
  organizationId: number,
  q: AnalyticsQuery,
  now = new Date(),
): Promise<Analytics> {
  const timeZone = await organizationTimezone(db, organizationId);
  const to = localDate(timeZone, now);
  const from = addDays(to, -(q.days - 1));
  await refreshRollups(
    db,
    organizationId,
    startOfLocalDayUtc(timeZone, from).toISOString(),
    startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString(),
    now,
  );
  return onSnapshot(db, (d) => readAnalytics(d, organizationId, q, now));
}

async function readAnalytics(db: Db, organizationId: number, q: AnalyticsQuery, now: Date): Promise<Analytics> {
  const timeZone = await organizationTimezone(db, organizationId);
  const to = localDate(timeZone, now);
  const from = addDays(to, -(q.days - 1));
  const fromUtc = startOfLocalDayUtc(timeZone, from).toISOString();
  const toUtc = startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString();

  const days = new Map(
    daysBetween(from, to).map((d) => [d, { date: d, samples_collected: 0, results_verified: 0, paise: 0 }]),
  );
  const dayOf = (minute: string) => days.get(localDate(timeZone, new Date(`${minute}:00.000Z`)));

  const categories = new Map<string, { lines: number; paise: number }>();
  const addCategory = (category: string | null, lines: number, paise: number) => {
    const name = category?.trim() || UNCATEGORISED;
    const c = categories.get(name) ?? { lines: 0, paise: 0 };
    c.lines += lines;
    c.paise += paise;
    categories.set(name, c);
  };
  // Fresh whole lab days from the rollups; the rest (today, stale days) from the rows by UTC minute.
  const plan = await planDays(db, organizationId, fromUtc, toUtc, now);
  let rejected = 0;
  const histogram = new Map<number, number>();
  for (const r of await dayRollup(db, organizationId, plan.runs)) {
    rejected += Number(r.samples_rejected);
    const d = days.get(r.day);
    if (d) {
      d.samples_collected += Number(r.samples_collected);
      d.results_verified += Number(r.results_verified);
    }
    forEachCount(r.tat_minutes, (m, n) => histogram.set(m, (histogram.get(m) ?? 0) + n));
  }
  for (const r of await billedPerDayRollup(db, organizationId, plan.runs)) {
    const d = days.get(r.day);
    if (d) d.paise += Number(r.paise ?? 0);
  }
  for (const r of await billedCategoriesRollup(db, organizationId, plan.runs))
    addCategory(r.category, Number(r.lines), Number(r.paise ?? 0));
  for (const e of plan.raw) {
    for (const r of await samplesCollectedByMinute(db, organizationId, e.fromUtc, e.toUtc)) {
      const d = dayOf(r.minute);
      if (d) d.samples_collected += Number(r.n);
    }
    for (const r of await resultsVerifiedByMinute(db, organizationId, e.fromUtc, e.toUtc)) {
      const d = dayOf(r.minute);
      if (d) d.results_verified += Number(r.n);
    }
    for (const r of await billedByMinuteAndCategory(db, organizationId, e.fromUtc, e.toUtc)) {
      const paise = Number(r.paise ?? 0);
      const d = dayOf(r.minute);
      if (d) d.paise += paise;
      addCategory(r.category, Number(r.lines), paise);
    }
    rejected += await rejectedCollected(db, organizationId, e.fromUtc, e.toUtc);
    for (const r of await turnaroundRows(db, organizationId, e.fromUtc, e.toUtc, 'verified'))
      histogram.set(r.minutes, (histogram.get(r.minutes) ?? 0) + 1);
  }

  const daily = [...days.values()].map((d) => ({
    date: d.date,
    samples_collected: d.samples_collected,
    results_verified: d.results_verified,
    revenue: rupees(d.paise),
  }));
  const samples = daily.reduce((s, d) => s + d.samples_collected, 0);
  const verified = daily.reduce((s, d) => s + d.results_verified, 0);
  const revenuePaise = [...days.values()].reduce((s, d) => s + d.paise, 0);
  const tat = [...histogram].filter(([, n]) => n !== 0).map(([minutes, n]) => ({ minutes, n }));
  const backlog = await awaitingVerification(db, organizationId, 0);

  return {
    days: q.days,
    from,
    to,
    time_zone: timeZone,
    cards: {
      patients: await distinctPatientsCollected(db, organizationId, fromUtc, toUtc),
      samples_collected: samples,
      results_verified: verified,
      revenue: rupees(revenuePaise),
    },
    daily,
    test_distribution: await topTests(db, organizationId, plan, 10),
    performance: {
      samples_per_day: Math.round((samples / q.days) * 10) / 10,
      tat_median_minutes: percentileOf(tat, 50),
      tat_p90_minutes: percentileOf(tat, 90),
      tat_results: tat.reduce((s, h) => s + h.n, 0),
      verification_backlog: backlog.total,
      rejected_samples: rejected,
      rejection_rate: samples === 0 ? null : Math.round((rejected / samples) * 1000) / 10,
    },
    revenue_by_category: [...categories]
      .map(([category, c]) => ({ category, lines: c.lines, revenue: rupees(c.paise) }))
      .sort((a, b) => b.revenue - a.revenue || a.category.localeCompare(b.category)),
  };
}

type Breach = LiveBoard['tat_breaches']['items'][number];
const overdue = (b: { elapsed_minutes: number; target_minutes: number }) => b.elapsed_minutes - b.target_minutes;
/** Most overdue first, then by sample code and test. */
const byOverdue = (a: Breach, b: Breach) =>
  overdue(b) - overdue(a) || a.sample_code.localeCompare(b.sample_code) || a.test_id - b.test_id;

/**
 * Ordered tests past their test's target turnaround: those still open (elapsed until now) and those
 * verified since `dayStart` (elapsed until verification), each counted; the LIVE_LIST_LIMIT most
 * overdue listed. Only the open tests that can be among those are named (a lab may have thousands
 * open): every open test less overdue than the LIMIT-th has LIMIT others before it.
 */
async function tatBreaches(db: Db, org: number, dayStart: string, now: Date): Promise<LiveBoard['tat_breaches']> {
  const open = (await openTestsWithTarget(db, org))
    .map((o) => ({
      sample_id: Number(o.sample_id),
      test_id: Number(o.test_id),
      target_minutes: Number(o.target_tat_minutes),
      elapsed_minutes: minutesFrom(o.collection_date!, now),
    }))
    .filter((b) => b.elapsed_minutes > b.target_minutes)
    .sort((a, b) => overdue(b) - overdue(a));
  const cut = open.length > LIVE_LIST_LIMIT ? overdue(open[LIVE_LIST_LIMIT - 1]!) : -Infinity;
  const candidates = open.filter((b) => overdue(b) >= cut);
  const { codes, names } = await namesOfOrderedTests(db, org, candidates);
  const late = (await verifiedWithTarget(db, org, dayStart))
    .map((c) => ({
      sample_code: c.sample_code,
      test_id: Number(c.test_id),
      test_name: c.test_name,
      target_minutes: Number(c.target_tat_minutes),
      elapsed_minutes: minutesFrom(c.collection_date!, new Date(c.verified_at!)),
      verified: true,
    }))
    .filter((b) => b.elapsed_minutes > b.target_minutes);
  const items = candidates
    // A sample deleted between the two reads is left out of the list.
    .filter((b) => codes.has(b.sample_id))
    .map((b) => ({
      sample_code: codes.get(b.sample_id)!,
      test_id: b.test_id,
      test_name: names.get(b.test_id)!,
      target_minutes: b.target_minutes,
      elapsed_minutes: b.elapsed_minutes,
      verified: false,
    }))
    .concat(late)
    .sort(byOverdue)
    .slice(0, LIVE_LIST_LIMIT);
  return { count: open.length + late.length, items };
}

/**
 * GET /api/analytics/live: the bench's day in the lab's time zone. Waiting and critical lists are
 * whatever is open now (a backlog from yesterday is still today's work); TAT breaches are ordered
 * tests still open past their test's target, and those verified late today.
 */
export function liveBoard(db: Db, actor: Actor, now = new Date()): Promise<LiveBoard> {
  return onSnapshot(db, (d) => readLiveBoard(d, actor, now));
}

async function readLiveBoard(db: Db, actor: Actor, now: Date): Promise<LiveBoard> {
  const org = actor.organizationId;
  const timeZone = await organizationTimezone(db, org);
  const today = localDate(timeZone, now);
  const dayStart = startOfLocalDayUtc(timeZone, today).toISOString();
  const dayEnd = startOfLocalDayUtc(timeZone, addDays(today, 1)).toISOString();

  const waiting = await awaitingVerification(db, org, LIVE_LIST_LIMIT);
  const critical = await criticalNotCalled(db, org, LIVE_LIST_LIMIT);
  const breaches = await tatBreaches(db, org, dayStart, now);
  // A list of another feature's (stock, equipment): only for a user who may see that feature.
  const listIf = async <R, T>(
    permission: Permission,
    read: () => Promise<{ total: number; rows: R[] }>,
    item: (r: R) => T,
  ): Promise<{ count: number; items: T[] } | null> => {
    if (!(await actorHasPermission(db, actor, permission))) return null;
    const { total, rows } = await read();
    return { count: total, items: rows.map(item) };
  };
  const lowStock = await listIf(
    'view_inventory',
    () => openShortages(db, org, LIVE_LIST_LIMIT),
    (r) => ({
      item_name: r.item_name,
      alert_type: r.alert_type,
      priority: r.priority,
      current_stock: Number(r.current_stock),
    }),
  );
  const calibrations = await listIf(
    'view_equipment',
    () => overdueCalibrations(db, org, today, LIVE_LIST_LIMIT),
    (r) => ({
      equipment_name: r.name,
      type: r.type,
      due_date: r.due_date,
      days_overdue: Math.round((Date.parse(today) - Date.parse(r.due_date)) / 86_400_000),
    }),
  );

  return {
    date: today,
    updated_at: now.toISOString(),
    time_zone: timeZone,
    samples_by_status: (await samplesByStatus(db, org, dayStart, dayEnd)).map((r) => ({
      status: r.status,
      count: Number(r.n),
    })),
    awaiting_verification: {
      count: waiting.total,
      oldest_minutes: waiting.rows[0] ? minutesFrom(waiting.rows[0].entered_at, now) : null,
      items: waiting.rows.map((r) => ({
        result_id: Number(r.id),
        sample_code: r.sample_code,
        test_name: r.test_name,
        entered_at: r.entered_at,
        waiting_minutes: minutesFrom(r.entered_at, now),
        is_critical: Number(r.is_critical) === 1,
      })),
    },
    critical_unacknowledged: {
      count: critical.total,
      items: critical.rows.map((r) => ({
        result_id: Number(r.id),
        sample_code: r.sample_code,
        test_name: r.test_name,
        value: r.result_value,
        unit: r.unit,
        entered_at: r.entered_at,
        minutes_since: minutesFrom(r.entered_at, now),
      })),
    },
    tat_breaches: breaches,
    low_stock: lowStock,
    overdue_calibrations: calibrations,
  };
}
