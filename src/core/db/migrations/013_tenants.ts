import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';

/**
 * Multi-Tenant Setup. Each organisation is a tenant (a lab with its own data): it gets
 * the host name its staff reach the server by (`domain`), a plan and a status. Invitations carry a
 * one-time link to set a first password (only its SHA-256 is stored).
 *
 * One email may now have an account in two labs: users.email stops being unique across the server
 * and becomes unique per organisation (case-insensitive: the column is NOCASE, CITEXT on
 * PostgreSQL). SQLite cannot drop a column's UNIQUE, so the users table is rebuilt (sqliteSteps:
 * SQLite's documented procedure, run by the migration runner with foreign-key enforcement off and
 * every reference checked before commit); PostgreSQL drops the constraint.
 */
export const sql = /* sql */ `
ALTER TABLE organizations ADD COLUMN domain TEXT COLLATE NOCASE;
ALTER TABLE organizations ADD COLUMN plan TEXT CHECK (plan IS NULL OR plan IN ('basic','standard','professional','enterprise'));
ALTER TABLE organizations ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','suspended','pending','inactive'));
CREATE UNIQUE INDEX organizations_domain ON organizations (domain) WHERE domain IS NOT NULL;

CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX invitations_org_user ON invitations (organization_id, user_id, id);
`;

/** users.email: unique per organisation instead of across the server (SQLite: a table rebuild). */
export function sqliteSteps(sqlite: Database.Database): void {
  rebuildTable(sqlite, 'users', (create) => {
    const edited = create.replace(/(\bemail\s+TEXT\s+NOT\s+NULL\s+COLLATE\s+NOCASE)\s+UNIQUE\b/i, '$1');
    if (edited === create) throw new Error('migration 13: users.email is not declared as expected');
    return edited;
  });
  sqlite.exec('CREATE UNIQUE INDEX users_org_email ON users (organization_id, email)');
}

export const usersEmailPerLabPostgres = /* sql */ `
DO $$
DECLARE c text;
BEGIN
  FOR c IN
    SELECT con.conname FROM pg_constraint con
    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)
    WHERE con.conrelid = 'users'::regclass AND con.contype = 'u' AND a.attname = 'email'
      AND array_length(con.conkey, 1) = 1
  LOOP
    EXECUTE format('ALTER TABLE users DROP CONSTRAINT %I', c);
  END LOOP;
END $$;
CREATE UNIQUE INDEX users_org_email ON users (organization_id, email);
`;
