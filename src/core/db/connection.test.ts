import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTSIDE_CHANGES_CHECK_MS, changeStamp, fixedQuery, openDatabase, type SqliteDatabase } from './connection.js';

const opened: { database: SqliteDatabase; dir: string }[] = [];

function fresh(): SqliteDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'lims-conn-'));
  const database = openDatabase(join(dir, 'lims.db'));
  opened.push({ database, dir });
  return database;
}

afterEach(async () => {
  for (const { database, dir } of opened.splice(0)) {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const now = '2026-01-01T00:00:00.000Z';

function addOrganization(d: SqliteDatabase, name: string): number {
  return Number(
    d.sqlite.prepare('INSERT INTO organizations (name, created_at, updated_at) VALUES (?, ?, ?)').run(name, now, now)
      .lastInsertRowid,
  );
}

async function addOrganizationThroughKysely(d: SqliteDatabase, name: string): Promise<void> {
  await d.db
    .insertInto('organizations')
    .values({
      name,
      address: null,
      phone: null,
      email: null,
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      date_format: 'DD/MM/YYYY',
      settings: '{}',
      is_demo: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

const orgName = fixedQuery((db, id: number) => db.selectFrom('organizations').select('name').where('id', '=', id));

describe('fixedQuery', () => {
  it('answers like the Kysely query it was built from, for every set of arguments', async () => {
    const d = fresh();
    const a = addOrganization(d, 'Alpha Labs');
    const b = addOrganization(d, 'Beta Labs');
    expect(await orgName.first(d.db, a)).toEqual({ name: 'Alpha Labs' });
    expect(await orgName.first(d.db, b)).toEqual({ name: 'Beta Labs' });
    expect(await orgName.all(d.db, b)).toEqual([{ name: 'Beta Labs' }]);
    expect(await orgName.first(d.db, 999)).toBeUndefined();
  });

  it('keeps constants of the query and places each argument where it was named', async () => {
    const d = fresh();
    addOrganization(d, 'Alpha Labs');
    addOrganization(d, 'Beta Labs');
    const named = fixedQuery((db, except: string, limit: number) =>
      db
        .selectFrom('organizations')
        .select('name')
        .where('id', '>', 0)
        .where('name', '<>', except)
        .orderBy('id')
        .limit(limit),
    );
    expect(await named.all(d.db, 'Alpha Labs', 5)).toEqual([{ name: 'Beta Labs' }]);
    const raw = fixedQuery((_db, n: number) => sql<{ twice: number }>`SELECT ${n} * 2 AS twice`);
    expect(await raw.first(d.db, 21)).toEqual({ twice: 42 });
  });

  it('inside a transaction sees that transaction, and outside waits for it to commit', async () => {
    const d = fresh();
    const id = addOrganization(d, 'Before');
    let seenOutside: unknown;
    let outside: Promise<unknown> | undefined;
    await d.db.transaction().execute(async (trx) => {
      await trx.updateTable('organizations').set({ name: 'During' }).where('id', '=', id).execute();
      expect(await orgName.first(trx, id)).toEqual({ name: 'During' });
      // The root instance must not read the open transaction's uncommitted row: it waits for the commit.
      outside = orgName.first(d.db, id).then((r) => (seenOutside = r));
      await new Promise((r) => setTimeout(r, 20));
      expect(seenOutside).toBeUndefined();
    });
    expect(await outside).toEqual({ name: 'During' });
  });

  it('refuses a builder that does not use one of its arguments as a parameter', async () => {
    const d = fresh();
    const unused = fixedQuery((db, _id: number) => db.selectFrom('organizations').select('name'));
    await expect(unused.all(d.db, 1)).rejects.toThrow(/argument 1 is not a parameter/);
  });
});

describe('changeStamp', () => {
  it('stays while nothing is written and moves at once on a write through Kysely', async () => {
    const d = fresh();
    const t = Date.now();
    const s0 = changeStamp(d.db, t);
    expect(s0).not.toBeNull();
    expect(changeStamp(d.db, t + 10)).toBe(s0);
    await addOrganizationThroughKysely(d, 'Own write');
    expect(changeStamp(d.db, t + 20)).not.toBe(s0);
  });

  it('moves within OUTSIDE_CHANGES_CHECK_MS on a commit by another connection or a write through the raw handle', async () => {
    const d = fresh();
    await addOrganizationThroughKysely(d, 'Lab');
    const t = Date.now();
    const s0 = changeStamp(d.db, t);
    const other = new Database(d.file);
    try {
      other.prepare("UPDATE organizations SET name = 'Changed elsewhere'").run();
    } finally {
      other.close();
    }
    const s1 = changeStamp(d.db, t + OUTSIDE_CHANGES_CHECK_MS);
    expect(s1).not.toBe(s0);
    addOrganization(d, 'Raw write');
    expect(changeStamp(d.db, t + 2 * OUTSIDE_CHANGES_CHECK_MS)).not.toBe(s1);
  });

  it('is null inside a transaction, when nothing may be reused', async () => {
    const d = fresh();
    await d.db.transaction().execute(async (trx) => {
      expect(changeStamp(d.db)).toBeNull();
      expect(changeStamp(trx)).toBeNull();
    });
  });
});
