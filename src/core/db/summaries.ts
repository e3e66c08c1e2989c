import { sql, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { backfill as summaries25 } from './migrations/025_report_summaries.js';
import { postgresBackfill as turnaround28 } from './migrations/028_report_turnaround.js';
import { backfill as discounts30 } from './migrations/030_report_speed.js';
import { backfill as liveOpen37 } from './migrations/037_live_open_collected.js';
import { backfill as year32 } from './migrations/032_report_year.js';
import { FOLD_TAT_PENDING_POSTGRES, postgresBackfill as tatTest35 } from './migrations/035_tat_test_monthly.js';
import { engineOf } from './dialect.js';
import type { Db } from './connection.js';

/**
 * The tables PostgreSQL keeps by row triggers from the rows of other tables (the report summaries of
 * migrations 25, 28, 30, 32 and 35, and the live board's open tests of migrations 31 and 37), each
 * filled by its latest migration's backfill, in migration order (report_turnaround before what is summed from it,
 * each daily table before its months).
 */
export const REBUILT_SUMMARIES = [
  'report_billed_daily',
  'report_workload_daily',
  'report_slots',
  'report_turnaround',
  'report_discounts_daily',
  'live_open_tests',
  'report_ledger_daily',
  'report_tat_daily',
  'report_doctor_daily',
  'report_billed_monthly',
  'report_workload_monthly',
  'report_tat_monthly',
  'report_doctor_monthly',
  'report_tat_test_monthly',
] as const;

const BACKFILLS = [summaries25, turnaround28, discounts30, liveOpen37, year32, tatTest35];

/**
 * Fills every summary of REBUILT_SUMMARIES from the rows, on a PostgreSQL database whose summaries
 * are empty and whose triggers were off while its rows were written (`lims db copy`). Each is one
 * INSERT ... SELECT: the same rows the triggers would have left, without the row versions a
 * trigger leaves when it updates one summary row once per written row in one transaction (quadratic,
 * and a table many times its size afterwards).
 */
export async function rebuildSummariesPostgres(trx: Transaction<DB>): Promise<void> {
  for (const t of REBUILT_SUMMARIES) {
    const r = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(t)}`.execute(trx);
    if (Number(r.rows[0]!.n) !== 0) throw new Error(`${t} is not empty: its summaries cannot be rebuilt`);
  }
  for (const b of BACKFILLS) await sql.raw(b).execute(trx);
}

/**
 * Whether the per-test turnaround histograms have pending change rows beside them (migration 35:
 * on PostgreSQL a trigger that updated one histogram row per written result walked that
 * transaction's versions of the row, so changes are inserted and folded later; SQLite's triggers
 * update in place). A reader adds the pending rows; the fold moves them in.
 */
export function keepsPendingTurnaround(db: Pick<Db, 'getExecutor'>): boolean {
  return engineOf(db) === 'postgres';
}

/**
 * Moves migration 35's pending turnaround counts into the monthly histograms (the server's
 * `turnaround-fold` job; readers are exact either way). Answers how many histogram rows it
 * changed; nothing to do where none are kept.
 */
export async function foldTatPending(db: Db): Promise<number> {
  if (!keepsPendingTurnaround(db)) return 0;
  const r = await sql`${sql.raw(FOLD_TAT_PENDING_POSTGRES)}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
