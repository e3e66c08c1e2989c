import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

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
export function lims(
  args: readonly string[],
  opts: { env?: Record<string, string>; input?: string } = {},
): Promise<RunResult> {
  const { LIMS_DATA_DIR: _dir, LIMS_ADMIN_PASSWORD: _pw, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = { ...inherited, HOME: tempDir('lims-home-'), ...opts.env };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env, timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(opts.input ?? '');
  });
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

/** Opens the lab's database file directly, to check what the CLI really stored. */
export function openDbFile(dir: string, opts: { readonly?: boolean } = {}): Database.Database {
  return new Database(join(dir, 'lims.db'), { readonly: opts.readonly ?? true, fileMustExist: true });
}

export function dbFileOf(dir: string): string {
  return join(dir, 'lims.db');
}
