import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * The server's WAL checkpoints (checkpoint.ts), on a thread with a connection of its own: every few
 * seconds a PASSIVE checkpoint copies what other connections committed into the database file. It
 * never waits for a lock and never makes anyone wait; what a reader still needs waits for the next.
 */

const { file, everyMs } = workerData as { file: string; everyMs: number };
const sqlite = new Database(file, { fileMustExist: true });
sqlite.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or interrupted: the next tick tries again.
  }
}, everyMs);
parentPort!.on('message', (m: unknown) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  sqlite.close();
  parentPort!.close();
});
