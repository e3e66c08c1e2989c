import type Database from 'better-sqlite3';
import { migrations, type Migration } from './migrations/index.js';

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
  const known = new Set(list.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length) {
    throw new Error(
      `the database has migration ${Math.max(...unknown)} which this version of lims does not know; upgrade lims`,
    );
  }
  const done: number[] = [];
  const insert = sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    sqlite
      .transaction(() => {
        sqlite.exec(m.sql);
        insert.run(m.version, m.name, new Date().toISOString());
      })
      .immediate();
    done.push(m.version);
  }
  return done;
}
