import type { Db } from '../../db/connection.js';
import { markEveryMinuteStale } from '../../db/rollup-stale.js';
import { addDays, labDayBounds, localDate, startOfLocalDayUtc } from '../../../shared/time.js';
import { organizationTimezone } from '../../settings/service.js';
import { ROLLUP_TABLES, rebuildDay, type LabDay } from './rebuild.js';

/**
 * Which lab days of a period the report rollups answer for, and which the rows do.
 *
 * A period [fromUtc, toUtc) is read from the rollups for its whole lab days before today whose
 * rollups are fresh (no stale minute), and from the rows for the rest: its partial days at the
 * edges, today (still being written) and any day with a stale minute. So a reader is exact on
 * whatever snapshot it reads, fresh or not; `refreshRollups`, run before a screen's snapshot in a
 * short transaction of its own, only makes it fast by rebuilding the stale days first.
 */

export interface DayPlan {
  timeZone: string;
  /** Runs of consecutive lab days [from, to) ('YYYY-MM-DD') read from the rollups. */
  runs: { from: string; to: string }[];
  /** UTC ranges [fromUtc, toUtc) read from the rows, in order, adjacent ones merged. */
  raw: { fromUtc: string; toUtc: string }[];
}

/** The whole lab days of [fromUtc, toUtc) before today, with their UTC bounds. */
async function wholeDaysBeforeToday(db: Db, org: number, fromUtc: string, toUtc: string, now: Date) {
  const timeZone = await organizationTimezone(db, org);
  const today = localDate(timeZone, now);
  let first = localDate(timeZone, new Date(fromUtc));
  if (startOfLocalDayUtc(timeZone, first).toISOString() < fromUtc) first = addDays(first, 1);
  let end = localDate(timeZone, new Date(toUtc));
  if (end > today) end = today;
  return { timeZone, days: dayBoundsOf(timeZone, first, end) };
}

/**
 * The UTC bounds of the lab days [first, end) in a zone, remembered: a pure function of its
 * arguments that costs hundreds of time-zone conversions for a year, which a screen's readers asked
 * for several times per request. Callers must not change the answer.
 */
const boundsCache = new Map<string, LabDay[]>();
const BOUNDS_CACHE_SIZE = 64;
export function dayBoundsOf(timeZone: string, first: string, end: string): LabDay[] {
  const key = `${timeZone}|${first}|${end}`;
  let days = boundsCache.get(key);
  if (!days) {
    const names: string[] = [];
    for (let d = first; d < end; d = addDays(d, 1)) names.push(d);
    days = labDayBounds(timeZone, names);
    if (boundsCache.size >= BOUNDS_CACHE_SIZE) boundsCache.delete(boundsCache.keys().next().value!);
    boundsCache.set(key, days);
  }
  return days;
}

/** The days among `days` (consecutive, in order) that have a stale minute, by index. */
async function staleDays(db: Db, org: number, days: LabDay[]): Promise<Set<number>> {
  const out = new Set<number>();
  if (days.length === 0) return out;
  const minutes = await db
    .selectFrom('rollup_stale')
    .select('minute')
    .where('organization_id', '=', org)
    .where('minute', '>=', days[0]!.start.slice(0, 16))
    .where('minute', '<', days[days.length - 1]!.end.slice(0, 16))
    .execute();
  for (const { minute } of minutes) {
    const k = dayIndexOf(days, minute);
    if (k >= 0) out.add(k);
  }
  return out;
}

/** The index of the day whose bounds hold UTC minute 'YYYY-MM-DDTHH:MM' (binary search), or -1. */
function dayIndexOf(days: LabDay[], minute: string): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = days[mid]!;
    if (minute < d.start.slice(0, 16)) hi = mid - 1;
    else if (minute >= d.end.slice(0, 16)) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** planDays after refreshing the stale days of the period (see refreshRollups). */
export async function freshPlan(db: Db, org: number, fromUtc: string, toUtc: string, now = new Date()) {
  await refreshRollups(db, org, fromUtc, toUtc, now);
  return planDays(db, org, fromUtc, toUtc, now);
}

export async function planDays(
  db: Db,
  org: number,
  fromUtc: string,
  toUtc: string,
  now = new Date(),
): Promise<DayPlan> {
  const { timeZone, days } = await wholeDaysBeforeToday(db, org, fromUtc, toUtc, now);
  if (days.length === 0) return { timeZone, runs: [], raw: toUtc > fromUtc ? [{ fromUtc, toUtc }] : [] };
  const stale = await staleDays(db, org, days);
  const raw: DayPlan['raw'] = [];
  const addRaw = (a: string, b: string) => {
    if (!(b > a)) return;
    const last = raw[raw.length - 1];
    if (last && last.toUtc === a) last.toUtc = b;
    else raw.push({ fromUtc: a, toUtc: b });
  };
  const runs: DayPlan['runs'] = [];
  addRaw(fromUtc, days[0]!.start);
  days.forEach((d, k) => {
    if (stale.has(k)) return addRaw(d.start, d.end);
    const last = runs[runs.length - 1];
    if (last && last.to === d.day) last.to = addDays(d.day, 1);
    else runs.push({ from: d.day, to: addDays(d.day, 1) });
  });
  addRaw(days[days.length - 1]!.end, toUtc);
  return { timeZone, runs, raw };
}

/** Days rebuilt per transaction: each transaction stays short, a year of days is still quick. */
const DAYS_PER_TRANSACTION = 16;

/**
 * Rebuilds the rollups of the whole lab days of [fromUtc, toUtc) before today that have a stale
 * minute. Each batch takes its days' marks away (DELETE ... RETURNING) and rebuilds the days whose
 * marks it took, in one transaction: a concurrent refresh of the same days finds no marks left and
 * does nothing; a write that commits meanwhile marks its minute again. Answers the days rebuilt.
 * Inside a caller's transaction (a screen's read-only snapshot, a command's unit of work) it
 * rebuilds nothing: the transactions stay short and their own, and the readers read the stale
 * days from the rows.
 */
export async function refreshRollups(db: Db, org: number, fromUtc: string, toUtc: string, now = new Date()) {
  if (db.isTransaction) return 0;
  const { days } = await wholeDaysBeforeToday(db, org, fromUtc, toUtc, now);
  const stale = [...(await staleDays(db, org, days))].map((k) => days[k]!);
  let rebuilt = 0;
  for (let i = 0; i < stale.length; i += DAYS_PER_TRANSACTION) {
    const batch = stale.slice(i, i + DAYS_PER_TRANSACTION);
    const run = async (trx: Db) => {
      for (const d of batch) {
        const taken = await trx
          .deleteFrom('rollup_stale')
          .where('organization_id', '=', org)
          .where('minute', '>=', d.start.slice(0, 16))
          .where('minute', '<', d.end.slice(0, 16))
          .returning('minute')
          .execute();
        if (taken.length === 0) continue;
        await rebuildDay(trx, org, d);
        rebuilt += 1;
      }
    };
    await db.transaction().execute(run);
  }
  return rebuilt;
}

/**
 * A lab's time zone changed: its lab days moved, so every rollup row of it is dropped and every
 * minute with rows marked stale (the next readers read the rows, then rebuild the days they read).
 */
export async function restartRollups(trx: Db, org: number): Promise<void> {
  for (const t of ROLLUP_TABLES) await trx.deleteFrom(t).where('organization_id', '=', org).execute();
  await markEveryMinuteStale(trx, org);
}
