import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ENGINE, freshPostgresUrl } from '../db.js';
import { readDataDirConfig, writeDataDirConfig } from '../../src/core/datadir.js';
import { openDatabaseAt, type Database_ } from '../../src/core/db/connection.js';
import { parseDatabaseUrl } from '../../src/core/db/url.js';
import { runCli } from '../../src/cli/program.js';

/** The real launcher, as an operator runs it; `npm test` builds dist/ before vitest starts. */
export const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const made: string[] = [];

/** A fresh directory under the system temp dir, removed by cleanup(). */
export function tempDir(prefix = 'lims-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs `node bin/lims.js ...args` with stdin as a pipe (so: not a terminal). HOME points at a
 * temp dir and LIMS_DATA_DIR is unset unless given, so no test can touch a real ~/.lims.
 */
export async function lims(
  args: readonly string[],
  opts: { env?: Record<string, string>; input?: string } = {},
): Promise<RunResult> {
  await provision(args, opts.env);
  const { LIMS_DATA_DIR: _dir, LIMS_ADMIN_PASSWORD: _pw, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = { ...inherited, HOME: tempDir('lims-home-'), ...opts.env };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(opts.input ?? '');
  });
}

/** A stream that keeps what is written to it, like a pipe read to the end. */
class Collected extends Writable {
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    done();
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Runs a command line in this process through runCli, the function bin/lims.js calls, with stdout
 * and stderr as pipes: the same parsing, commands, output and exit code, without starting a Node
 * process (about a second of CPU each). For tests of what a command does with the data; what only
 * the real binary shows (a TTY, the process's own exit, signals) keeps using lims().
 */
export async function limsInProcess(
  args: readonly string[],
  opts: { env?: Record<string, string> } = {},
): Promise<RunResult> {
  if (opts.env) throw new Error('limsInProcess runs in this process: pass --data-dir, not env');
  await provision(args, undefined);
  const stdout = new Collected();
  const stderr = new Collected();
  const code = await runCli(['node', 'lims', ...args], { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

export const ADMIN = { email: 'admin@citylab.in', password: 'correct-horse-1' } as const;

/** Sets up a lab non-interactively in dir and fails loudly if that did not work. */
export async function setUpLab(dir: string, extra: readonly string[] = []): Promise<RunResult> {
  const r = await lims([
    '--data-dir',
    dir,
    'setup',
    '--yes',
    '--lab-name',
    'City Diagnostics',
    '--admin-name',
    'Asha Rao',
    '--admin-email',
    ADMIN.email,
    '--admin-password',
    ADMIN.password,
    ...extra,
  ]);
  if (r.code !== 0) throw new Error(`setup failed (${r.code}): ${r.stderr}`);
  return r;
}

/**
 * On the PostgreSQL project each data dir a test hands to the CLI gets its own fresh database,
 * stored in the dir's config.json (as lims setup --database-url would), so every command run on that
 * dir uses it. Dirs that do not exist yet are left alone (the command's own errors are under test).
 */
async function provision(args: readonly string[], env: Record<string, string> | undefined): Promise<void> {
  if (ENGINE !== 'postgres') return;
  const dirs: string[] = [];
  args.forEach((a, i) => {
    if (a === '--data-dir' && args[i + 1]) dirs.push(args[i + 1]!);
    else if (a.startsWith('--data-dir=')) dirs.push(a.slice('--data-dir='.length));
  });
  if (env?.LIMS_DATA_DIR) dirs.push(env.LIMS_DATA_DIR);
  for (const dir of dirs) await provisionDir(dir);
}

export async function provisionDir(dir: string): Promise<void> {
  if (ENGINE !== 'postgres' || !existsSync(dir) || readDataDirConfig(dir).database_url) return;
  writeDataDirConfig(dir, { database_url: await freshPostgresUrl() });
}

/**
 * The lab database of a data dir as the CLI sees it (its config's URL, else its lims.db), opened
 * through lims's own connection code: for checking what a command stored, on either engine.
 */
export async function openLabDatabase(dir: string): Promise<Database_> {
  const url = readDataDirConfig(dir).database_url;
  return openDatabaseAt(url ? parseDatabaseUrl(url) : { kind: 'sqlite', file: join(dir, 'lims.db') }, {
    listen: false,
  });
}

/** Whether the data dir's lab database holds anything (SQLite: the file exists; PostgreSQL: an organisation row). */
export async function labDatabaseUsed(dir: string): Promise<boolean> {
  const url = readDataDirConfig(dir).database_url;
  if (!url) return existsSync(join(dir, 'lims.db'));
  const d = await openLabDatabase(dir);
  try {
    return (await d.db.selectFrom('organizations').select('id').limit(1).execute()).length > 0;
  } finally {
    await d.close();
  }
}

/** Opens the lab's database file directly, to check what the CLI really stored (SQLite only). */
export function openDbFile(dir: string, opts: { readonly?: boolean } = {}): Database.Database {
  return new Database(join(dir, 'lims.db'), { readonly: opts.readonly ?? true, fileMustExist: true });
}

export function dbFileOf(dir: string): string {
  return join(dir, 'lims.db');
}
