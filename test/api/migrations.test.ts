import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { openDatabase } from '../../src/core/db/connection.js';
import { migrate } from '../../src/core/db/migrate.js';
import { migrations } from '../../src/core/db/migrations/index.js';

const allVersions = migrations.map((m) => m.version).sort((a, b) => a - b);

function tables(sqlite: Database.Database): string[] {
  return (
    sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[]
  ).map((r) => r.name);
}

describe('migrations', () => {
  it('are numbered 1, 2, 3, ... in order, without repeats or gaps', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual(allVersions);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    for (const m of migrations) expect(m.name).toMatch(/^[a-z0-9_]+$/);
  });

  it('all apply to an empty database, and the tables the app needs exist', async () => {
    const file = join(tempDir(), 'lims.db');
    const d = openDatabase(file);
    try {
      const applied = (
        d.sqlite.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
      ).map((r) => r.version);
      expect(applied).toEqual(allVersions);
      expect(tables(d.sqlite)).toEqual(
        expect.arrayContaining([
          'organizations',
          'users',
          'sessions',
          'patients',
          'audit_log',
          'sequences',
          'entity_counts',
        ]),
      );
      expect(d.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(d.sqlite.pragma('foreign_key_check')).toEqual([]);
    } finally {
      await d.close();
    }
  });

  it('opening the same database again applies nothing twice and keeps the data', async () => {
    const file = join(tempDir(), 'lims.db');
    const first = openDatabase(file);
    const now = new Date().toISOString();
    first.sqlite
      .prepare(
        "INSERT INTO organizations (name, timezone, currency, date_format, settings, created_at, updated_at) VALUES ('Kept Lab', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', ?, ?)",
      )
      .run(now, now);
    const schemaBefore = first.sqlite.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    await first.close();

    const second = openDatabase(file);
    try {
      expect(migrate(second.sqlite)).toEqual([]);
      const rows = second.sqlite.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number };
      expect(rows.n).toBe(allVersions.length);
      expect(second.sqlite.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()).toEqual(
        schemaBefore,
      );
      expect(second.sqlite.prepare('SELECT name FROM organizations').all()).toEqual([{ name: 'Kept Lab' }]);
    } finally {
      await second.close();
    }
  });

  it('migrate() applies pending ones in order and answers their versions', () => {
    const sqlite = new Database(join(tempDir(), 'raw.db'));
    try {
      expect(migrate(sqlite)).toEqual(allVersions);
      expect(migrate(sqlite)).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  it('a migration that fails leaves nothing half-applied', () => {
    const sqlite = new Database(join(tempDir(), 'broken.db'));
    try {
      const broken = [{ version: 1, name: 'broken', sql: 'CREATE TABLE half_done (x INTEGER); CREATE TABLE (' }];
      expect(() => migrate(sqlite, broken)).toThrow();
      expect(tables(sqlite)).toEqual(['schema_migrations']);
      expect(sqlite.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: 0 });
    } finally {
      sqlite.close();
    }
  });

  it('a table rebuild (sqliteSteps) that would break a reference is refused, and foreign keys stay on', () => {
    const sqlite = new Database(join(tempDir(), 'rebuild.db'));
    try {
      sqlite.pragma('foreign_keys = ON');
      const base = [
        {
          version: 1,
          name: 'base',
          sql: 'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id)); INSERT INTO parent (id) VALUES (1); INSERT INTO child (id, parent_id) VALUES (1, 1);',
        },
      ];
      migrate(sqlite, base);
      const breaking = [
        ...base,
        {
          version: 2,
          name: 'breaking',
          sql: '',
          sqliteSteps: (db: Database.Database) => void db.exec('DELETE FROM parent'),
        },
      ];
      expect(() => migrate(sqlite, breaking)).toThrow(/migration 2 \(breaking\) would break 1 reference/);
      expect(sqlite.prepare('SELECT count(*) AS n FROM parent').get()).toEqual({ n: 1 });
      expect(sqlite.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 1 });
      expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      sqlite.close();
    }
  });

  it('refuses a database written by a newer lims (an unknown migration version)', () => {
    const file = join(tempDir(), 'newer.db');
    const sqlite = new Database(file);
    migrate(sqlite);
    sqlite
      .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', '2099-01-01')")
      .run();
    sqlite.close();
    expect(() => openDatabase(file)).toThrow(/migration 999.*upgrade lims/);
  });
});

describe('connection pragmas', () => {
  it('are WAL, synchronous FULL, foreign keys ON and a busy timeout', async () => {
    const d = openDatabase(join(tempDir(), 'lims.db'));
    try {
      expect(d.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(d.sqlite.pragma('synchronous', { simple: true })).toBe(2);
      expect(d.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(Number(d.sqlite.pragma('busy_timeout', { simple: true }))).toBeGreaterThanOrEqual(1000);
    } finally {
      await d.close();
    }
  });

  it('enforce foreign keys: a user of an organisation that does not exist is refused', async () => {
    const d = openDatabase(join(tempDir(), 'lims.db'));
    try {
      const now = new Date().toISOString();
      expect(() =>
        d.sqlite
          .prepare(
            "INSERT INTO users (organization_id, email, password_hash, first_name, last_name, role, created_at, updated_at) VALUES (42, 'x@y.test', 'h', 'A', 'B', 'user', ?, ?)",
          )
          .run(now, now),
      ).toThrow(/FOREIGN KEY/);
    } finally {
      await d.close();
    }
  });
});

describe('migration 5 (walk-in)', () => {
  it('stores Indian mobiles as their 10 digits and leaves other numbers and tidy ones as they were', () => {
    const sqlite = new Database(join(tempDir(), 'm5.db'));
    migrate(
      sqlite,
      migrations.filter((m) => m.version < 5),
    );
    sqlite.exec(
      `INSERT INTO organizations (id, name, timezone, created_at, updated_at) VALUES (1, 'L', 'Asia/Kolkata', 'x', 'x')`,
    );
    const insert = sqlite.prepare(
      `INSERT INTO patients (organization_id, patient_code, first_name, last_name, date_of_birth, phone, membership_type, created_at, updated_at)
       VALUES (1, ?, 'A', 'B', '1990-01-01', ?, 'none', 'x', 'x')`,
    );
    const phones = ['+91 98450 12345', '91-98450-12345', '9845012345', '080 4000 1234', '12345', null];
    phones.forEach((p, i) => insert.run(`P${i}`, p));
    migrate(sqlite);
    const after = (sqlite.prepare('SELECT phone FROM patients ORDER BY id').all() as { phone: string | null }[]).map(
      (r) => r.phone,
    );
    expect(after).toEqual(['9845012345', '9845012345', '9845012345', '080 4000 1234', '12345', null]);
    sqlite.close();
  });
});

describe('migration 19 (payments ledger)', () => {
  it("keeps every payment of an upgraded lab: netbanking becomes bank_transfer, refunds their kind, each dated by the lab's day", () => {
    const sqlite = new Database(join(tempDir(), 'm19.db'));
    migrate(
      sqlite,
      migrations.filter((m) => m.version < 19),
    );
    sqlite.exec(`
      INSERT INTO organizations (id, name, timezone, created_at, updated_at) VALUES (1, 'L', 'Asia/Kolkata', 'x', 'x');
      INSERT INTO patients (id, organization_id, patient_code, first_name, last_name, date_of_birth, membership_type, created_at, updated_at)
        VALUES (7, 1, 'P1', 'A', 'B', '1990-01-01', 'none', 'x', 'x');
      INSERT INTO bills (id, organization_id, bill_number, patient_id, subtotal_paise, consultation_fee_paise,
        total_before_discount_paise, discount_percentage, discount_amount_paise, tax_percentage, tax_amount_paise,
        final_amount_paise, paid_paise, payment_method, due_date, created_at, updated_at)
        VALUES (3, 1, 'B1', 7, 50000, 0, 50000, 0, 0, 0, 0, 50000, 30000, 'netbanking', '2026-04-01', 'x', 'x');
      INSERT INTO payments (id, organization_id, bill_id, amount_paise, method, reference, created_at) VALUES
        (1, 1, 3, 50000, 'netbanking', 'UTR1', '2026-03-31T19:00:00.000Z'),
        (2, 1, 3, -20000, 'cash', NULL, '2026-03-31T18:00:00.000Z');
    `);
    migrate(sqlite);
    expect(
      sqlite
        .prepare('SELECT id, amount_paise, method, kind, patient_id, value_date, reference FROM payments ORDER BY id')
        .all(),
    ).toEqual([
      // 19:00 UTC on 31 March is half past midnight on 1 April in India: the lab's day.
      {
        id: 1,
        amount_paise: 50000,
        method: 'bank_transfer',
        kind: 'payment',
        patient_id: 7,
        value_date: '2026-04-01',
        reference: 'UTR1',
      },
      {
        id: 2,
        amount_paise: -20000,
        method: 'cash',
        kind: 'refund',
        patient_id: 7,
        value_date: '2026-03-31',
        reference: null,
      },
    ]);
    expect(sqlite.prepare('SELECT payment_method FROM bills WHERE id = 3').get()).toEqual({
      payment_method: 'bank_transfer',
    });
    expect(sqlite.pragma('foreign_key_check')).toEqual([]);
    sqlite.close();
  });
});
