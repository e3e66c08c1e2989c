import { sql } from 'kysely';
import type { Db } from './connection.js';

let counter = 0;

/**
 * Runs fn inside a savepoint of the open transaction (the same SQL on SQLite and PostgreSQL): if it
 * throws, its writes are undone and the transaction stays usable (PostgreSQL would otherwise refuse
 * every later statement). An import stores each row of a small entity this way, so one row refused
 * by a service rule becomes a row error instead of ending the import.
 */
export async function withSavepoint<T>(trx: Db, fn: () => Promise<T>): Promise<T> {
  const name = `lims_sp_${(counter = (counter + 1) % 1_000_000)}`;
  await sql.raw(`SAVEPOINT ${name}`).execute(trx);
  try {
    const result = await fn();
    await sql.raw(`RELEASE SAVEPOINT ${name}`).execute(trx);
    return result;
  } catch (err) {
    await sql.raw(`ROLLBACK TO SAVEPOINT ${name}`).execute(trx);
    await sql.raw(`RELEASE SAVEPOINT ${name}`).execute(trx);
    throw err;
  }
}
