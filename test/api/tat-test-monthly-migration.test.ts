import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { openMigratedFrom } from '../db.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { migrations } from '../../src/core/db/migrations/index.js';

/**
 * Migration 35 backfills a lab's existing turnaround rows into the whole-minute histogram per month
 * and test, on both engines (the triggers are tested with the reports in report-summaries.test.ts).
 */
const TAT_TEST = migrations.find((m) => m.name === 'tat_test_monthly')!.version;
const before = migrations.filter((m) => m.version < TAT_TEST);

const NOW = '2026-01-01T00:00:00.000Z';
const org = (id: number) =>
  `INSERT INTO organizations (id, name, timezone, currency, date_format, settings, created_at, updated_at) VALUES (${id}, 'Lab ${id}', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', '${NOW}', '${NOW}')`;
/** (result, lab, test, collected, ms, minutes): minutes as migration 28 rounds them. */
const ROWS: [number, number, number, string, number, number][] = [
  [1, 1, 5, '2026-01-10T04:00:00.000Z', 3_600_001, 60],
  [2, 1, 5, '2026-01-31T23:59:59.999Z', 3_600_000, 60],
  [3, 1, 5, '2026-01-20T04:00:00.000Z', 5_430_000, 91],
  [4, 1, 5, '2026-02-01T00:00:00.000Z', -420_000, -7],
  [5, 1, 6, '2026-01-05T04:00:00.000Z', 7_200_500, 120],
  [6, 2, 5, '2026-01-05T04:00:00.000Z', 60_000, 1],
];
const SEED = [
  org(1),
  org(2),
  ...ROWS.map(
    ([id, lab, test, collected, ms, minutes]) =>
      `INSERT INTO report_turnaround (result_id, organization_id, test_id, collected_at, verified_at, ms, minutes)
       VALUES (${id}, ${lab}, ${test}, '${collected}', '${NOW}', ${ms}, ${minutes})`,
  ),
];

let open: Database_[] = [];
afterEach(async () => {
  for (const d of open) await d.close();
  open = [];
});

async function migratedFromBefore(): Promise<Database_> {
  const d = await openMigratedFrom(before, SEED);
  open.push(d);
  return d;
}

describe('migration 35 on a database that holds turnaround rows', () => {
  it('backfills each lab, month and test: counts per whole minute, and the whole hours past them', async () => {
    const d = await migratedFromBefore();
    const rows = (
      await d.db.executeQuery<{
        organization_id: number;
        month: string;
        test_id: number;
        n: number;
        minutes: string | object;
        above: string | object;
      }>(
        CompiledQuery.raw(
          'SELECT organization_id, month, test_id, n, minutes, above FROM report_tat_test_monthly ORDER BY organization_id, month, test_id',
        ),
      )
    ).rows.map((r) => ({
      lab: Number(r.organization_id),
      month: r.month,
      test: Number(r.test_id),
      n: Number(r.n),
      // JSON text on SQLite, jsonb (parsed by the driver) on PostgreSQL.
      minutes: typeof r.minutes === 'string' ? (JSON.parse(r.minutes) as unknown) : r.minutes,
      above: typeof r.above === 'string' ? (JSON.parse(r.above) as unknown) : r.above,
    }));
    expect(rows).toEqual([
      // 3,600,001 ms is past the hour, 3,600,000 is not; 90.5 minutes counts as 91.
      { lab: 1, month: '2026-01', test: 5, n: 3, minutes: { 60: 2, 91: 1 }, above: { 60: 1 } },
      { lab: 1, month: '2026-01', test: 6, n: 1, minutes: { 120: 1 }, above: { 120: 1 } },
      // Verified before its collection time: a negative minute, in the month of collection.
      { lab: 1, month: '2026-02', test: 5, n: 1, minutes: { '-7': 1 }, above: {} },
      { lab: 2, month: '2026-01', test: 5, n: 1, minutes: { 1: 1 }, above: {} },
    ]);
  });
});
