import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { engineOf } from '../../src/core/db/dialect.js';
import { entityNamed, runImport } from '../../src/core/transfer/service.js';

/**
 * An import's rows reach the database as the file gave them on both engines (PostgreSQL's bulk
 * insert sends each batch as one JSON parameter: quotes, backslashes, braces, commas, new lines,
 * emoji and Indian scripts must come back unchanged), are found by the search at once, and on
 * PostgreSQL the search's prefix counts, written once at the end of the import, equal the counts
 * made from the search words themselves.
 */

let lab: TestLab;
let dir: string;

const TRICKY = [
  { first_name: 'Rohan', last_name: "D'Souza", address: '12, "Shanti" Nagar \\ Block {A} [2]' },
  { first_name: 'श्रीनिवास', last_name: 'Iyer', address: 'Flat 4\nSecond line, 🧪 lab lane' },
  { first_name: 'Zoë', last_name: 'Müller', address: '{"not": "json"}, NULL, \\N' },
  { first_name: 'Anand', last_name: 'Nair', address: 'ok' },
];
const ROWS = 1_200;

beforeAll(async () => {
  lab = await makeLab();
  dir = tempDir('lims-import-bulk-');
});
afterAll(() => lab.close());

describe('values of an imported file', () => {
  it('are stored exactly, searchable, and counted by prefix', async () => {
    const rows = [['first_name', 'last_name', 'gender', 'date_of_birth', 'phone', 'address']];
    for (let i = 0; i < ROWS; i++) {
      const t = TRICKY[i % TRICKY.length]!;
      rows.push([t.first_name, t.last_name, 'Female', '1981-04-05', `98${String(10_000_000 + i)}`, t.address]);
    }
    const path = join(dir, 'tricky.csv');
    writeFileSync(path, stringify(rows));
    const result = await runImport(lab.database.db, systemActor(lab.organizationId), {
      entity: entityNamed('patients')!,
      path,
      dryRun: false,
      update: false,
      origin: 'cli',
      reportPath: () => null,
      spoolDir: join(dir, 'spool'),
    });
    expect(result).toMatchObject({ status: 'completed', inserted: ROWS, errors: 0 });

    const stored = await lab.database.db
      .selectFrom('patients')
      .select(['first_name', 'last_name', 'address', 'phone'])
      .where('organization_id', '=', lab.organizationId)
      .orderBy('id')
      .execute();
    expect(stored).toHaveLength(ROWS);
    stored.forEach((p, i) => {
      const t = TRICKY[i % TRICKY.length]!;
      expect(p).toEqual({ ...t, phone: `98${String(10_000_000 + i)}` });
    });

    const found = await lab.admin.get('/api/patients?search=श्रीनि&limit=5');
    expect(found.statusCode).toBe(200);
    expect(found.json().total).toBe(ROWS / TRICKY.length);
    const souza = await lab.admin.get(`/api/patients?search=${encodeURIComponent("d'souza")}&limit=5`);
    expect(souza.json().total).toBe(ROWS / TRICKY.length);

    if (engineOf(lab.database.db) === 'postgres') {
      // The counts kept for short prefixes against the same counts made from the words.
      const differ = await sql<{ prefix: string; kept: number; counted: number }>`
        WITH counted AS (
          SELECT left(w.word, l) AS prefix, count(DISTINCT w.patient_id) AS n
          FROM patient_search_words w, generate_series(1, 6) AS l
          WHERE w.organization_id = ${lab.organizationId} AND length(w.word) >= l
          GROUP BY 1
        )
        SELECT coalesce(c.prefix, k.prefix) AS prefix, k.n AS kept, c.n AS counted
        FROM counted c
        FULL JOIN (SELECT prefix, n FROM patient_search_prefix_counts WHERE organization_id = ${lab.organizationId}) k
          ON k.prefix = c.prefix
        WHERE k.n IS DISTINCT FROM c.n AND coalesce(k.n, 0) + coalesce(c.n, 0) > 0`.execute(lab.database.db);
      expect(differ.rows).toEqual([]);
    }
  });
});
