import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { ROLLUP_TABLES } from '../../db/rollup-stale.js';
import { histogramText, turnaroundRows } from './turnaround-rows.js';
import { rebuildMoneyDay } from './rebuild-money.js';

export { ROLLUP_TABLES };

/**
 * The report rollups of one lab day, rebuilt from that day's rows: each is a pure function of the
 * rows whose time falls in the day's UTC bounds [start, end), so rebuilding a day twice, or after
 * any write, gives the same rows. Nothing else writes them (the triggers of migration 49 only mark
 * a minute stale; src/core/reports/rollups/days.ts decides which days to rebuild).
 */

export interface LabDay {
  day: string;
  /** UTC bounds [start, end) as ISO text. */
  start: string;
  end: string;
}

/** Replaces lab day `d`'s rows of every rollup of lab `org` with what its rows give; call in a transaction. */
export async function rebuildDay(trx: Db, org: number, d: LabDay): Promise<void> {
  for (const t of ROLLUP_TABLES)
    await trx.deleteFrom(t).where('organization_id', '=', org).where('day', '=', d.day).execute();

  // Lines of live bills made on the day, per catalogue item.
  await sql`INSERT INTO rollup_billed (organization_id, day, item_type, test_id, profile_id, package_id, name, lines, qty, total_paise)
    SELECT b.organization_id, ${d.day}, i.item_type, COALESCE(i.test_id, 0), COALESCE(i.profile_id, 0),
      COALESCE(i.package_id, 0), i.name, COUNT(*), SUM(i.qty), SUM(i.total_paise)
    FROM bills b JOIN bill_items i ON i.bill_id = b.id
    WHERE b.organization_id = ${org} AND b.created_at >= ${d.start} AND b.created_at < ${d.end} AND b.cancelled_at IS NULL
    GROUP BY b.organization_id, i.item_type, COALESCE(i.test_id, 0), COALESCE(i.profile_id, 0), COALESCE(i.package_id, 0), i.name`.execute(
    trx,
  );

  // Tests ordered on the samples of the day (collected, else ordered), per test.
  const sampleDay = sql`COALESCE(s.collection_date, s.created_at)`;
  await sql`INSERT INTO rollup_workload (organization_id, day, test_id, ordered, collected, resulted, verified, rejected)
    SELECT s.organization_id, ${d.day}, st.test_id, COUNT(*),
      SUM(CASE WHEN s.collection_date IS NOT NULL THEN 1 ELSE 0 END),
      SUM(CASE WHEN r.result_value IS NOT NULL THEN 1 ELSE 0 END),
      SUM(CASE WHEN r.status = 'verified' THEN 1 ELSE 0 END),
      SUM(CASE WHEN s.status = 'rejected' THEN 1 ELSE 0 END)
    FROM samples s JOIN sample_tests st ON st.sample_id = s.id
    LEFT JOIN test_results r ON r.sample_id = st.sample_id AND r.test_id = st.test_id
    WHERE s.organization_id = ${org} AND ${sampleDay} >= ${d.start} AND ${sampleDay} < ${d.end}
    GROUP BY s.organization_id, st.test_id`.execute(trx);

  // Turnaround of the results of the samples collected on the day, per test.
  const perTest = new Map<number, { n: number; minutes: Map<number, number>; above: Map<number, number> }>();
  for (const r of await turnaroundRows(trx, org, d.start, d.end, 'collected')) {
    let t = perTest.get(r.test_id);
    if (!t) perTest.set(r.test_id, (t = { n: 0, minutes: new Map(), above: new Map() }));
    t.n += 1;
    t.minutes.set(r.minutes, (t.minutes.get(r.minutes) ?? 0) + 1);
    if (r.above) t.above.set(r.minutes, (t.above.get(r.minutes) ?? 0) + 1);
  }
  if (perTest.size)
    await trx
      .insertInto('rollup_turnaround')
      .values(
        [...perTest].map(([test_id, t]) => ({
          organization_id: org,
          day: d.day,
          test_id,
          n: t.n,
          minutes: histogramText(t.minutes),
          above: histogramText(t.above),
        })),
      )
      .execute();

  // The day's samples collected (and rejected), results verified and their turnaround.
  const samples = await trx
    .selectFrom('samples as s')
    .select([
      sql<number>`COUNT(*)`.as('collected'),
      sql<number>`SUM(CASE WHEN s.status = 'rejected' THEN 1 ELSE 0 END)`.as('rejected'),
    ])
    .where('s.organization_id', '=', org)
    .where('s.collection_date', '>=', d.start)
    .where('s.collection_date', '<', d.end)
    .executeTakeFirstOrThrow();
  const verified = await trx
    .selectFrom('test_results as r')
    .select(sql<number>`COUNT(*)`.as('n'))
    .where('r.organization_id', '=', org)
    .where('r.status', '=', 'verified')
    .where('r.verified_at', '>=', d.start)
    .where('r.verified_at', '<', d.end)
    .executeTakeFirstOrThrow();
  const tat = new Map<number, number>();
  for (const r of await turnaroundRows(trx, org, d.start, d.end, 'verified'))
    tat.set(r.minutes, (tat.get(r.minutes) ?? 0) + 1);
  const collected = Number(samples.collected ?? 0);
  const results = Number(verified.n ?? 0);
  if (collected || results)
    await trx
      .insertInto('rollup_day')
      .values({
        organization_id: org,
        day: d.day,
        samples_collected: collected,
        samples_rejected: Number(samples.rejected ?? 0),
        results_verified: results,
        tat_minutes: histogramText(tat),
      })
      .execute();

  await rebuildMoneyDay(trx, org, d);
}
