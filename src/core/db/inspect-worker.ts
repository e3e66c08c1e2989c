import { parentPort, workerData } from 'node:worker_threads';
import { inspectDatabaseFile } from './backup.js';

/**
 * SQLite's integrity check of a backup copy (backup.ts), on a thread of its own: on a database of a
 * few hundred thousand patients it reads every page for seconds, which on the server's thread held
 * every request with it (the scheduled backup, a minute after the server starts).
 */

const { file } = workerData as { file: string };
try {
  parentPort!.postMessage({ ok: inspectDatabaseFile(file) });
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
}
