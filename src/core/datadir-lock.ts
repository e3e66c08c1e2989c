import { closeSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * One process at a time owns a data dir: `lims serve`, and the commands that replace or bulk-write
 * the lab's database (restore, db copy, import). The lock is an exclusive SQLite lock on
 * `<data dir>/lims.lock`, held on an open connection for the life of the process: SQLite takes it
 * with the operating system's byte-range locks (fcntl on Linux and macOS, LockFileEx on Windows),
 * which the kernel drops when the process ends, however it ends (kill -9 included). Nothing has to
 * be cleaned up after a crash, and no file is ever the lock by merely existing.
 *
 * Who holds it is written beside it, in `lims.lock.json`, by the holder only, after it has the lock:
 * a process that is refused reads that file and never writes or removes anything.
 */

export interface LockHolder {
  pid: number;
  /** The command's words without its flags (flags may carry a database password): "lims serve". */
  command: string;
  /** ISO time the lock was taken. */
  since: string;
}

export class DataDirBusy extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
  ) {
    super(busyMessage(dir, holder));
    this.name = 'DataDirBusy';
  }
}

export interface DataDirLock {
  /** Lets go of the data dir (idempotent); the holder's files are removed first, while it still holds it. */
  release(): void;
}

export function lockPaths(dir: string): { lock: string; holder: string; servePid: string } {
  return { lock: join(dir, 'lims.lock'), holder: join(dir, 'lims.lock.json'), servePid: join(dir, 'serve.pid') };
}

function shownTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function busyMessage(dir: string, holder: LockHolder | null): string {
  const who = holder
    ? `${holder.command} (pid ${holder.pid}, since ${shownTime(holder.since)})`
    : 'another lims process (it has not written its details yet)';
  return `the data dir ${dir} is in use by ${who}; stop it first, or wait until it has finished`;
}

/** What the holder wrote about itself, or null when the file is missing, half written or not ours. */
export function readHolder(dir: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(lockPaths(dir).holder, 'utf8')) as Partial<LockHolder>;
    if (!Number.isInteger(h.pid) || typeof h.command !== 'string' || typeof h.since !== 'string') return null;
    return { pid: h.pid!, command: h.command, since: h.since };
  } catch {
    return null;
  }
}

/**
 * Takes the data dir for this process or throws DataDirBusy at once (no waiting). `command` names the
 * process for whoever is refused later ("lims serve", "lims import patients"). `servePid` also writes
 * serve.pid, kept for operators' scripts as information only.
 */
export function lockDataDir(dir: string, command: string, opts: { servePid?: boolean } = {}): DataDirLock {
  const paths = lockPaths(dir);
  // Created (0600) before SQLite opens it: opening and closing it once the lock is held would drop
  // this process's POSIX locks on it.
  closeSync(openSync(paths.lock, 'a', 0o600));
  const conn = new Database(paths.lock, { timeout: 0 });
  try {
    // No journal file beside it; once taken, the exclusive lock is kept until the connection closes.
    conn.pragma('journal_mode = MEMORY');
    conn.pragma('locking_mode = EXCLUSIVE');
    conn.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    conn.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirBusy(dir, readHolder(dir));
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, command, since: new Date().toISOString() };
  const written: string[] = [];
  const write = (file: string, text: string) => {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
    written.push(file);
  };
  try {
    write(paths.holder, `${JSON.stringify(holder)}\n`);
    if (opts.servePid) write(paths.servePid, `${process.pid}\n`);
  } catch (err) {
    conn.close();
    throw err;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      for (const file of written) rmSync(file, { force: true });
      conn.close();
    },
  };
}
