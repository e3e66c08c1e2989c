import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

/**
 * The turnaround (sample collection -> result verification) of verified results, read from the
 * rows: the one definition the rollups are rebuilt with and the live part of a period is read
 * with. A result counts when it is verified, has its verification time and its sample has a
 * collection time.
 */

export interface TurnaroundRow {
  test_id: number;
  /** Whole minutes, the interval rounded to the nearest minute (halves away from zero). */
  minutes: number;
  /** Past its whole minute in milliseconds, on a whole hour (a target is whole hours): "over target" at that minute. */
  above: boolean;
}

/** An ISO-8601 instant in milliseconds; text without a zone is UTC, as the engines read it. */
const instant = (text: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

export function turnaroundOf(collected: string, verified: string): { minutes: number; above: boolean } | null {
  const ms = instant(verified) - instant(collected);
  if (!Number.isFinite(ms)) return null;
  const minutes = Math.sign(ms) * Math.round(Math.abs(ms) / 60000);
  return { minutes, above: minutes % 60 === 0 && ms > minutes * 60000 };
}

/**
 * The turnaround of the verified results of a lab whose sample was collected (`by` 'collected') or
 * which were verified (`by` 'verified') in [fromUtc, toUtc).
 */
export async function turnaroundRows(
  db: Db,
  organizationId: number,
  fromUtc: string,
  toUtc: string,
  by: 'collected' | 'verified',
): Promise<TurnaroundRow[]> {
  const range =
    by === 'collected'
      ? sql`s.organization_id = ${organizationId} AND s.collection_date >= ${fromUtc} AND s.collection_date < ${toUtc}`
      : sql`r.organization_id = ${organizationId} AND r.verified_at >= ${fromUtc} AND r.verified_at < ${toUtc}`;
  const rows = (
    await sql<{
      test_id: number;
      collected: string;
      verified: string;
    }>`SELECT r.test_id, s.collection_date AS collected,
        r.verified_at AS verified
      FROM samples s JOIN test_results r ON r.sample_id = s.id
      WHERE ${range} AND r.status = 'verified' AND r.verified_at IS NOT NULL AND s.collection_date IS NOT NULL`.execute(
      db,
    )
  ).rows;
  const out: TurnaroundRow[] = [];
  for (const r of rows) {
    const t = turnaroundOf(r.collected, r.verified);
    if (t) out.push({ test_id: Number(r.test_id), ...t });
  }
  return out;
}

/** Whole-minute counts as the JSON object the rollups keep ({"<minutes>": count}). */
export function histogramText(counts: Map<number, number>): string {
  return JSON.stringify(Object.fromEntries([...counts].filter(([, n]) => n !== 0)));
}
