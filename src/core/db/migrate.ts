import type Database from 'better-sqlite3';
import { migrations, type Migration } from './migrations/index.js';

/**
 * Refuses a database that a newer lims has migrated: running older code on it would read and
 * write tables it does not know the shape of. Both engines' runners ask this before migrating.
 */
export function refuseNewerDatabase(applied: ReadonlySet<number>, list: readonly Migration[]): void {
  const known = new Set(list.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length) {
    throw new Error(
      `the database has migration ${Math.max(...unknown)} which this version of lims does not know; upgrade lims`,
    );
  }
}

/**
 * Applies pending migrations in order, each inside its own transaction, and records them.
 * A database newer than this build (unknown versions) is refused rather than guessed at.
 */
export function migrate(sqlite: Database.Database, list: Migration[] = migrations): number[] {
  sqlite.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (sqlite.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  refuseNewerDatabase(applied, list);
  const done: number[] = [];
  const insert = sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    // A table rebuild needs foreign-key enforcement off (the pragma cannot change inside a
    // transaction); the references are checked before the migration commits instead.
    const enforcing = m.sqliteSteps !== undefined && sqlite.pragma('foreign_keys', { simple: true }) === 1;
    if (enforcing) sqlite.pragma('foreign_keys = OFF');
    try {
      sqlite
        .transaction(() => {
          sqlite.exec(m.sql);
          if (m.sqliteSteps) {
            m.sqliteSteps(sqlite);
            const broken = sqlite.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
            if (broken.length) {
              const b = broken[0]!;
              throw new Error(
                `migration ${m.version} (${m.name}) would break ${broken.length} reference(s), e.g. ${b.table} row ${b.rowid} -> ${b.parent}`,
              );
            }
          }
          insert.run(m.version, m.name, new Date().toISOString());
        })
        .immediate();
    } finally {
      if (enforcing) sqlite.pragma('foreign_keys = ON');
    }
    done.push(m.version);
  }
  return done;
}
