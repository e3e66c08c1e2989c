import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database_ } from '../../src/core/db/connection.js';
import { onSnapshot } from '../../src/core/db/dialect.js';
import { ENGINE, openTestDatabase } from '../db.js';

/**
 * A screen's reads on one snapshot (onSnapshot): on PostgreSQL a write committed between two of its
 * statements is not seen by the second, so its totals and its page agree; SQLite is read as it is.
 */
let database: Database_;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const count = async (db: Database_['db']) =>
  Number((await sql<{ n: number }>`SELECT count(*) AS n FROM organizations`.execute(db)).rows[0]!.n);

describe('onSnapshot', () => {
  it(`on ${ENGINE}: ${ENGINE === 'postgres' ? 'does not see' : 'sees'} a write committed between its reads`, async () => {
    const NOW = '2026-01-01T00:00:00.000Z';
    const [first, second] = await onSnapshot(database.db, async (db) => {
      const a = await count(db);
      // Another connection's write, committed at once (on PostgreSQL the pool's other connection).
      await sql`INSERT INTO organizations (name, timezone, currency, date_format, settings, created_at, updated_at)
        VALUES ('Written meanwhile', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', ${NOW}, ${NOW})`.execute(database.db);
      return [a, await count(db)];
    });
    expect(second).toBe(ENGINE === 'postgres' ? first : first + 1);
    expect(await count(database.db)).toBe(first + 1);
  });

  // SQLite's one connection serves a transaction's statements until it ends; PostgreSQL's readers do not wait.
  it.skipIf(ENGINE !== 'postgres')('does not wait for a write transaction that is open', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let started = () => {};
    const writing = new Promise<void>((r) => (started = r));
    const writer = database.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      started();
      await held;
    });
    await writing;
    const blocked = new Promise<'blocked'>((r) => setTimeout(() => r('blocked'), 3000));
    const read = await Promise.race([onSnapshot(database.db, (db) => count(db)), blocked]);
    release();
    await writer;
    expect(read).not.toBe('blocked');
  });

  it('inside a transaction, reads on that transaction', async () => {
    await database.db.transaction().execute(async (trx) => {
      expect(await onSnapshot(trx, async (db) => db === trx)).toBe(true);
    });
  });
});
