import { Worker } from 'node:worker_threads';
import type { Database_ } from './connection.js';

/**
 * SQLite copies its write-ahead log into the database file (a checkpoint) at the end of a commit,
 * in the committing thread, once the log holds 1,000 pages. After an import of 100,000 patients the
 * log holds hundreds of MB, and the next commit on the server's thread (a session touch) would copy
 * them with every request of the server waiting. The server's own connection therefore never
 * checkpoints (wal_autocheckpoint = 0): a thread of its own does, every few seconds.
 */

const EVERY_MS = 2000;

function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts'))
    return new URL(here.replace(/\/src\/core\/db\/checkpoint\.ts$/, '/dist/src/core/db/checkpoint-worker.js'));
  return new URL('./checkpoint-worker.js', here);
}

/** Starts the checkpoint thread of a SQLite database (nothing on PostgreSQL); answers its stop. */
export function startCheckpoints(database: Database_, onError: (err: unknown) => void): () => Promise<void> {
  if (database.engine !== 'sqlite') return async () => undefined;
  const sqlite = database.sqlite;
  const worker = new Worker(workerUrl(), { workerData: { file: database.file, everyMs: EVERY_MS } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (err) => {
    onError(err);
    // Without the thread, the server's connection checkpoints again as SQLite does by default.
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  return async () => {
    if (stopped) return;
    stopped = true;
    // Held while it stops: an unreferenced thread lets the process end (exit code 0) before the
    // stop is done, and the server's shutdown after it (the data dir's lock files) never runs.
    worker.ref();
    worker.postMessage('stop');
    await exited;
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
}
