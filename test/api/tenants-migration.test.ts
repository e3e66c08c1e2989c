import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { openMigratedFrom } from '../db.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { migrations } from '../../src/core/db/migrations/index.js';

/**
 * The tenants migration makes users.email unique per lab instead of across the server. On SQLite
 * that rebuilds the users table, which fifteen tables reference (one with ON DELETE CASCADE): a
 * database at the version before it, holding data, must come out with every row and reference.
 */
const TENANTS = migrations.find((m) => m.name === 'tenants')!.version;
const before = migrations.filter((m) => m.version < TENANTS);

const NOW = '2026-01-01T00:00:00.000Z';
const SEED = [
  `INSERT INTO organizations (id, name, timezone, currency, date_format, settings, created_at, updated_at) VALUES (1, 'First Lab', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', '${NOW}', '${NOW}')`,
  `INSERT INTO organizations (id, name, timezone, currency, date_format, settings, created_at, updated_at) VALUES (2, 'Second Lab', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', '${NOW}', '${NOW}')`,
  `INSERT INTO users (id, organization_id, email, password_hash, first_name, last_name, role, created_at, updated_at) VALUES (7, 1, 'asha@lab.test', 'h1', 'Asha', 'Rao', 'superadmin', '${NOW}', '${NOW}')`,
  `INSERT INTO users (id, organization_id, email, password_hash, first_name, last_name, role, specialization, created_at, updated_at) VALUES (8, 1, 'Dr.Kavya@lab.test', '', 'Kavya', 'Menon', 'doctor', 'Pediatrics', '${NOW}', '${NOW}')`,
  `INSERT INTO users (id, organization_id, email, password_hash, first_name, last_name, role, created_at, updated_at) VALUES (9, 2, 'olga@other.test', 'h3', 'Olga', 'Other', 'admin', '${NOW}', '${NOW}')`,
  `INSERT INTO sessions (id, user_id, organization_id, created_at, last_seen_at, expires_at) VALUES ('s1', 7, 1, '${NOW}', '${NOW}', '2099-01-01T00:00:00.000Z')`,
  `INSERT INTO patients (id, organization_id, patient_code, first_name, last_name, date_of_birth, created_by, created_at, updated_at) VALUES (30, 1, 'PAT202601010001', 'Ramesh', 'Kumar', '1980-01-01', 7, '${NOW}', '${NOW}')`,
  `INSERT INTO doctor_profiles (user_id, organization_id, qualification, status, created_at, updated_at) VALUES (8, 1, 'MBBS, DCH', 'active', '${NOW}', '${NOW}')`,
  `INSERT INTO notifications (organization_id, user_id, kind, type, priority, title, message, created_at) VALUES (1, 8, 'critical_result', 'error', 'high', 'Critical', 'A value', '${NOW}')`,
];

let open: Database_[] = [];
afterEach(async () => {
  for (const d of open) await d.close();
  open = [];
});

async function all<T>(d: Database_, text: string): Promise<T[]> {
  return (await d.db.executeQuery<T>(CompiledQuery.raw(text))).rows;
}

async function migratedFromBefore(): Promise<Database_> {
  const d = await openMigratedFrom(before, SEED);
  open.push(d);
  return d;
}

describe('the tenants migration on a database that holds data', () => {
  it('keeps every user, their ids and every row that refers to them', async () => {
    const d = await migratedFromBefore();
    expect(await all(d, 'SELECT id, organization_id, email, role FROM users ORDER BY id')).toEqual([
      { id: 7, organization_id: 1, email: 'asha@lab.test', role: 'superadmin' },
      { id: 8, organization_id: 1, email: 'Dr.Kavya@lab.test', role: 'doctor' },
      { id: 9, organization_id: 2, email: 'olga@other.test', role: 'admin' },
    ]);
    // The doctor's profile refers to users ON DELETE CASCADE: a rebuild with enforcement on would have erased it.
    expect(await all(d, 'SELECT user_id, qualification FROM doctor_profiles')).toEqual([
      { user_id: 8, qualification: 'MBBS, DCH' },
    ]);
    expect(await all(d, 'SELECT id, user_id FROM sessions')).toEqual([{ id: 's1', user_id: 7 }]);
    expect(await all(d, 'SELECT created_by FROM patients')).toEqual([{ created_by: 7 }]);
    expect(await all(d, 'SELECT user_id FROM notifications')).toEqual([{ user_id: 8 }]);
    // Existing labs are active, with no domain or plan.
    expect(await all(d, 'SELECT id, status, domain, plan FROM organizations ORDER BY id')).toEqual([
      { id: 1, status: 'active', domain: null, plan: null },
      { id: 2, status: 'active', domain: null, plan: null },
    ]);
    if (d.engine === 'sqlite') {
      expect(d.sqlite.pragma('foreign_key_check')).toEqual([]);
      expect(d.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(d.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      const indexes = (
        d.sqlite.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'users' AND type = 'index'").all() as {
          name: string;
        }[]
      ).map((r) => r.name);
      expect(indexes).toEqual(expect.arrayContaining(['users_org_role', 'users_org_email']));
    }
  });

  it('lets one email have an account in two labs, but only one per lab (any case)', async () => {
    const d = await migratedFromBefore();
    const insert = (id: number, org: number, email: string) =>
      d.db.executeQuery(
        CompiledQuery.raw(
          `INSERT INTO users (id, organization_id, email, password_hash, first_name, last_name, role, created_at, updated_at) VALUES (${id}, ${org}, '${email}', 'h', 'A', 'B', 'user', '${NOW}', '${NOW}')`,
        ),
      );
    await insert(20, 2, 'asha@lab.test');
    await expect(insert(21, 1, 'ASHA@lab.test')).rejects.toThrow(/unique|UNIQUE/);
    await expect(insert(22, 2, 'Asha@Lab.Test')).rejects.toThrow(/unique|UNIQUE/);
    expect(
      await all(d, "SELECT organization_id FROM users WHERE email = 'asha@lab.test' ORDER BY organization_id"),
    ).toEqual([{ organization_id: 1 }, { organization_id: 2 }]);
  });

  it('still enforces the references to users afterwards', async () => {
    const d = await migratedFromBefore();
    await expect(
      d.db.executeQuery(
        CompiledQuery.raw(
          `INSERT INTO sessions (id, user_id, organization_id, created_at, last_seen_at, expires_at) VALUES ('s2', 999, 1, '${NOW}', '${NOW}', '${NOW}')`,
        ),
      ),
    ).rejects.toThrow(/foreign key|FOREIGN KEY/i);
    await expect(d.db.executeQuery(CompiledQuery.raw('DELETE FROM users WHERE id = 7'))).rejects.toThrow(
      /foreign key|FOREIGN KEY/i,
    );
  });
});
