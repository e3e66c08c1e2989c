import type { Database_ } from '../src/core/db/connection.js';
import type { Db } from '../src/core/db/connection.js';
import { systemActor } from '../src/core/context.js';
import { buildReport, resolvePeriod, revenueAnalytics } from '../src/core/reports/service.js';
import { restartRollups } from '../src/core/reports/rollups/days.js';
import { revenueDaily } from '../src/core/reports/revenue.js';
import { analytics } from '../src/core/analytics/service.js';
import type { ReportYear } from './report-year.js';

/**
 * The figures must not move with the report machinery: each report and screen of the bench year,
 * answered as a lab sees it (its rollups, rebuilt where stale), against the same answer from the
 * rows alone (inside a transaction that drops every rollup and marks every minute stale, then rolls
 * back, so the readers take no rollup and rebuild nothing). Equal to the paisa, on each engine.
 */

export interface AnswerCheck {
  id: string;
  days: number;
  equal: boolean;
  /** The first key path where they differ, when they do. */
  differs?: string;
}

/** A report's answer without what changes from one call to the next (the moment it was built). */
const VOLATILE = new Set(['generated_at']);

function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return Object.is(a, b) ? undefined : `${path || '(root)'}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (VOLATILE.has(k)) continue;
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}

class Rollback extends Error {}

export async function compareAnswers(
  database: Database_,
  year: ReportYear,
  ids: readonly string[],
  screens: readonly string[],
  days: number,
  log: (line: string) => void,
): Promise<AnswerCheck[]> {
  const org = year.organizationId;
  const actor = systemActor(org, 'bench');
  const period = await resolvePeriod(database.db, org, { range: days });
  const dates = { from: period.from, to: period.to };
  const answer = async (db: Db, id: string): Promise<unknown> => {
    if (id === 'analytics') return analytics(db, org, { days } as never);
    if (id === 'revenue-daily') return revenueDaily(db, org, dates);
    if (id === 'revenue-analytics') return revenueAnalytics(db, org, dates);
    return buildReport(db, actor, id, period);
  };
  const all = [...ids, ...screens];
  const withRollups = new Map<string, unknown>();
  for (const id of all) withRollups.set(id, await answer(database.db, id));
  const fromRows = new Map<string, unknown>();
  await database.db
    .transaction()
    .execute(async (trx) => {
      await restartRollups(trx, org);
      for (const id of all) fromRows.set(id, await answer(trx, id));
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  const out = all.map((id): AnswerCheck => {
    const differs = firstDifference(withRollups.get(id), fromRows.get(id));
    return { id, days, equal: differs === undefined, ...(differs ? { differs } : {}) };
  });
  const unequal = out.filter((c) => !c.equal);
  log(
    `  answers at ${days} d, rollups against rows alone: ${out.length - unequal.length} of ${out.length} equal${unequal.map((c) => `; ${c.id} differs at ${c.differs}`).join('')}`,
  );
  return out;
}
