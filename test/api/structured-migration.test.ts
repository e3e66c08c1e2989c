import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { openMigratedFrom } from '../db.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { migrations } from '../../src/core/db/migrations/index.js';

/**
 * Migration 43 on an existing lab: the starter catalogue's free-text urine routine, stool routine
 * and culture tests become structured with their templates; any other test, and a starter code the
 * lab already made a choice or number test of, stays as it was. The result type may be 'structured'.
 */
const STRUCTURED = migrations.find((m) => m.name === 'structured_results')!.version;
const before = migrations.filter((m) => m.version < STRUCTURED);
const NOW = '2026-01-01T00:00:00.000Z';
const test = (id: number, code: string, type: string) =>
  `INSERT INTO tests (id, organization_id, name, code, price_paise, base_price_paise, result_type, created_at, updated_at)
   VALUES (${id}, 1, 'Test ${code}', '${code}', 10000, 10000, '${type}', '${NOW}', '${NOW}')`;
const SEED = [
  `INSERT INTO organizations (id, name, timezone, currency, date_format, settings, created_at, updated_at) VALUES (1, 'Lab', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', '${NOW}', '${NOW}')`,
  test(1, 'URM', 'text'),
  test(2, 'stool', 'text'),
  test(3, 'UCS', 'text'),
  test(4, 'BCS', 'choice'),
  test(5, 'HB', 'numeric'),
  test(6, 'AFB', 'text'),
];

let open: Database_[] = [];
afterEach(async () => {
  for (const d of open) await d.close();
  open = [];
});

describe('migration 43 on a lab with the starter tests', () => {
  it('makes the free-text urine, stool and culture tests structured; leaves the others', async () => {
    const d = await openMigratedFrom(before, SEED);
    open.push(d);
    const rows = (
      await d.db.executeQuery<{ code: string; result_type: string; result_template: string | null }>(
        CompiledQuery.raw('SELECT code, result_type, result_template FROM tests ORDER BY id'),
      )
    ).rows;
    expect(rows).toEqual([
      { code: 'URM', result_type: 'structured', result_template: 'urine_routine' },
      { code: 'stool', result_type: 'structured', result_template: 'stool_routine' },
      { code: 'UCS', result_type: 'structured', result_template: 'culture' },
      { code: 'BCS', result_type: 'choice', result_template: null },
      { code: 'HB', result_type: 'numeric', result_template: null },
      { code: 'AFB', result_type: 'text', result_template: null },
    ]);
    // The result type's CHECK still refuses what is not a type.
    await expect(
      d.db.executeQuery(CompiledQuery.raw("UPDATE tests SET result_type = 'photo' WHERE id = 5")),
    ).rejects.toThrow();
  });
});
