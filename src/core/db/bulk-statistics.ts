import { sql } from 'kysely';
import type { Db } from './connection.js';
import { engineOf } from './dialect.js';

/**
 * The tables triggers read while rows are written (a line's bill, a result's sample and ordered
 * test for the rollups' stale marks and the live board's open tests), refreshed by ANALYZE as a
 * big import into PostgreSQL grows them.
 */
const READ_BY_TRIGGERS = ['bills', 'bill_items', 'samples', 'sample_tests', 'test_results'];
const FIRST = 100;

/**
 * PostgreSQL plans a trigger's statements once per connection, with the statistics of that moment:
 * a lab's first import of bills into an empty table kept the plans made for an empty table (scans
 * of the whole table) while it grew inside the import's one transaction, so each row cost more than
 * the last (5,000 bills: 112 s, against 4.8 s on SQLite). ANALYZE inside the transaction counts its
 * own rows and makes the cached plans be made again; done after 100, 400, 1,600 ... rows written, it
 * runs a handful of times for any file. Answers the function to call with the rows written so far.
 * SQLite plans each trigger statement when it runs: nothing to do there.
 */
export function statisticsAsWritten(db: Db): (written: number) => Promise<void> {
  if (engineOf(db) !== 'postgres') return async () => undefined;
  let next = FIRST;
  return async (written) => {
    if (written < next) return;
    while (next <= written) next *= 4;
    await sql.raw(`ANALYZE ${READ_BY_TRIGGERS.join(', ')}`).execute(db);
  };
}
