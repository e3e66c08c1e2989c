import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `lims serve` marks the data dir as in use, so `lims restore` will not swap the database under it. */
export function lockFile(dir: string): string {
  return join(dir, 'serve.pid');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a running `lims serve` on this data dir, or null (a stale file left by a crash is ignored). */
export function runningServer(dir: string): number | null {
  const f = lockFile(dir);
  if (!existsSync(f)) return null;
  const pid = Number(readFileSync(f, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

export function writeServeLock(dir: string): void {
  writeFileSync(lockFile(dir), `${process.pid}\n`);
}

export function removeServeLock(dir: string): void {
  const f = lockFile(dir);
  if (existsSync(f) && readFileSync(f, 'utf8').trim() === String(process.pid)) rmSync(f, { force: true });
}
