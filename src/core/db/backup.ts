import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Database_ } from './connection.js';

export interface BackupReport {
  file: string;
  bytes: number;
  pages: number;
  schema_version: number;
  patients: number;
}

/** Facts about a lims database file, after SQLite's own integrity check; throws if it is not one. */
export function inspectDatabaseFile(file: string): Omit<BackupReport, 'bytes' | 'pages'> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`${file} failed SQLite's integrity check: ${check}`);
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    if (!tables.has('schema_migrations') || !tables.has('organizations') || !tables.has('patients')) {
      throw new Error(`${file} is not a lims database`);
    }
    const version = (db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number }).v;
    const patients = (db.prepare('SELECT count(*) AS n FROM patients').get() as { n: number }).n;
    return { file, schema_version: version, patients };
  } finally {
    db.close();
  }
}

/**
 * A consistent copy of the live database through SQLite's online backup API: safe while the server
 * runs and writes. The copy is checked before this returns.
 */
export async function backupDatabase(database: Database_, outFile: string): Promise<BackupReport> {
  if (existsSync(outFile)) throw new Error(`${outFile} already exists; choose another file name`);
  const tmp = `${outFile}.partial`;
  rmSync(tmp, { force: true });
  try {
    const result = await database.sqlite.backup(tmp);
    renameSync(tmp, outFile);
    const info = inspectDatabaseFile(outFile);
    const { size } = await import('node:fs').then((fs) => fs.statSync(outFile));
    return { ...info, bytes: size, pages: result.totalPages };
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Puts a backup in place of the data dir's database. The current database is kept beside it as
 * lims.db.before-restore-<time>, never deleted. The caller makes sure no server is running.
 */
export function restoreDatabase(backupFile: string, dbFile: string): { previous: string | null } {
  inspectDatabaseFile(backupFile);
  let previous: string | null = null;
  if (existsSync(dbFile)) {
    // Fold the WAL into the main file first so the kept copy is complete on its own.
    const current = new Database(dbFile);
    current.pragma('wal_checkpoint(TRUNCATE)');
    current.close();
    previous = `${dbFile}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dbFile, previous);
    for (const ext of ['-wal', '-shm']) rmSync(`${dbFile}${ext}`, { force: true });
  }
  copyFileSync(backupFile, dbFile);
  return { previous };
}
