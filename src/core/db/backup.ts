import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Database_, PostgresDatabase } from './connection.js';
import type { DatabaseTarget } from './url.js';
import { backupStamp, beforeRestoreName } from '../backups/names.js';

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

/** The worker's module: beside this one when compiled; run from source (tests), the compiled one of `npm run build:server`. */
function inspectWorkerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts'))
    return new URL(here.replace(/\/src\/core\/db\/backup\.ts$/, '/dist/src/core/db/inspect-worker.js'));
  return new URL('./inspect-worker.js', here);
}

/** inspectDatabaseFile on a worker thread: the caller's thread goes on answering meanwhile. */
export function inspectDatabaseFileOffThread(file: string): Promise<Omit<BackupReport, 'bytes' | 'pages'>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(inspectWorkerUrl(), { workerData: { file } });
    let answer: { ok?: Omit<BackupReport, 'bytes' | 'pages'>; error?: string } | null = null;
    worker.once('message', (m: typeof answer) => (answer = m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (answer?.ok) resolve(answer.ok);
      else reject(new Error(answer?.error ?? `the integrity check's thread stopped (exit code ${code})`));
    });
  });
}

/**
 * A consistent copy of the live database through SQLite's online backup API: safe while the server
 * runs and writes. The copy is checked before this returns.
 */
export async function backupDatabase(database: Database_, outFile: string): Promise<BackupReport> {
  if (existsSync(outFile)) throw new Error(`${outFile} already exists; choose another file name`);
  const tmp = `${outFile}.partial`;
  rmSync(tmp, { force: true });
  if (database.engine === 'postgres') return backupPostgres(database, outFile, tmp);
  try {
    const result = await database.sqlite.backup(tmp);
    // The copy stands alone: no -wal/-shm beside it, and readable by this user only (patient data).
    const copy = new Database(tmp);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    chmodSync(tmp, 0o600);
    renameSync(tmp, outFile);
    const info = await inspectDatabaseFileOffThread(outFile);
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
    const stamp = backupStamp(labTimeZone(current));
    current.close();
    previous = beforeRestoreName(dbFile, stamp);
    // Two restores within one second would otherwise put the second kept copy over the first.
    for (let n = 2; existsSync(previous); n++) previous = beforeRestoreName(dbFile, `${stamp}-${n}`);
    renameSync(dbFile, previous);
    for (const ext of ['-wal', '-shm']) rmSync(`${dbFile}${ext}`, { force: true });
  }
  copyFileSync(backupFile, dbFile);
  return { previous };
}

/** The timezone of the database's first lab, for the name of the copy; null when it holds none. */
function labTimeZone(db: Database.Database): string | null {
  try {
    const row = db.prepare('SELECT timezone FROM organizations ORDER BY id LIMIT 1').get() as
      { timezone: string | null } | undefined;
    return row?.timezone ?? null;
  } catch {
    // Not a lims database, or one older than organizations: the name falls back to UTC.
    return null;
  }
}

type PostgresTarget = Extract<DatabaseTarget, { kind: 'postgres' }>;

/** Connection settings for PostgreSQL's own programs, through their environment (never the command line). */
function pgEnv(t: PostgresTarget): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PGHOST: t.host,
    PGPORT: String(t.port),
    PGDATABASE: t.database,
    PGUSER: t.user,
    ...(t.password !== undefined ? { PGPASSWORD: t.password } : {}),
    ...(t.sslmode ? { PGSSLMODE: t.sslmode } : {}),
  };
}

/** Runs one of PostgreSQL's client programs; a missing program is one line naming it. */
export function runPgProgram(program: string, args: string[], t: PostgresTarget): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: pgEnv(t), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new Error(
              `${program} is not on the PATH: install PostgreSQL's client programs (Debian: apt-get install postgresql-client), the same major version as the server or newer`,
            )
          : e,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${program} failed: ${err.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}

/**
 * pg_dump in its custom format: a consistent snapshot while servers keep writing, restorable with
 * pg_restore (lims restore). The archive's table of contents is read back before this returns.
 */
async function backupPostgres(database: PostgresDatabase, outFile: string, tmp: string): Promise<BackupReport> {
  const t = database.target as PostgresTarget;
  try {
    await runPgProgram('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${tmp}`], t);
    chmodSync(tmp, 0o600);
    const toc = await runPgProgram('pg_restore', ['--list', tmp], t);
    if (!/TABLE DATA \S+ patients /.test(toc)) throw new Error(`${outFile}: the dump holds no patients table`);
    renameSync(tmp, outFile);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  const facts = await database.pool.query<{ v: number; n: number }>(
    'SELECT (SELECT max(version) FROM schema_migrations) AS v, (SELECT count(*) FROM patients) AS n',
  );
  return {
    file: outFile,
    bytes: statSync(outFile).size,
    pages: 0,
    schema_version: Number(facts.rows[0]?.v ?? 0),
    patients: Number(facts.rows[0]?.n ?? 0),
  };
}

/** pg_restore of a lims backup into an empty PostgreSQL database, in one transaction. */
export async function restorePostgres(backupFile: string, t: PostgresTarget): Promise<void> {
  const toc = await runPgProgram('pg_restore', ['--list', backupFile], t);
  if (!/TABLE DATA \S+ patients /.test(toc)) throw new Error(`${backupFile} is not a lims backup made by pg_dump`);
  await runPgProgram(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${t.database}`, backupFile],
    t,
  );
}
