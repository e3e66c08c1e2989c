import { sql } from 'kysely';
import type { Db } from './connection.js';

/** The report rollups: tables derived from a lab day's rows (src/core/reports/rollups), rebuilt, never copied. */
export const ROLLUP_TABLES = [
  'rollup_billed',
  'rollup_workload',
  'rollup_turnaround',
  'rollup_day',
  'rollup_discounts',
  'rollup_revenue',
  'rollup_doctor',
] as const;

/**
 * Marks every UTC minute that has report rows stale (all labs, or one), so that the report
 * rollups of every lab day that has rows are rebuilt from the rows when next read: after `lims db
 * copy` (the copy does not carry derived tables) and a change of a lab's time zone (its lab days
 * move). The marks are the ones migration 49's triggers make one write at a time.
 */
export async function markEveryMinuteStale(db: Db, organizationId?: number): Promise<void> {
  const lab = (alias: string) =>
    organizationId === undefined ? sql`true` : sql`${sql.ref(`${alias}.organization_id`)} = ${organizationId}`;
  await sql`INSERT INTO rollup_stale (organization_id, minute)
    SELECT organization_id, minute FROM (
      SELECT b.organization_id, substr(b.created_at, 1, 16) AS minute FROM bills b WHERE ${lab('b')}
      UNION SELECT s.organization_id, substr(COALESCE(s.collection_date, s.created_at), 1, 16) FROM samples s WHERE ${lab('s')}
      UNION SELECT r.organization_id, substr(r.verified_at, 1, 16) FROM test_results r
        WHERE ${lab('r')} AND r.verified_at IS NOT NULL
    ) m WHERE true ON CONFLICT DO NOTHING`.execute(db);
}
