import { parentPort, threadId, workerData } from 'node:worker_threads';
import { openDatabaseAt } from '../db/connection.js';
import type { DatabaseTarget } from '../db/url.js';
import { performTask, type HeavyAnswer, type HeavyEvent, type HeavyTask } from './tasks.js';

/**
 * One heavy job on a thread of its own (pool.ts): its own connection to the lab's database, the
 * job run to its end, the answer posted back, the connection closed. A long SQLite statement or a
 * PDF of thousands of pages blocks this thread only; the server's requests go on.
 */

export type ToHeavyWorker = { type: 'cancel' };
export type FromHeavyWorker =
  | { type: 'event'; event: HeavyEvent }
  | { type: 'done'; answer: HeavyAnswer; threadId: number }
  | { type: 'error'; error: SentError };

/** An error as it crosses threads: a domain error keeps its status, code and fields. */
export interface SentError {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
  details?: { path: string; message: string }[];
}

const port = parentPort!;
const { target, task } = workerData as { target: DatabaseTarget; task: HeavyTask };
const controller = new AbortController();
port.on('message', (m: ToHeavyWorker) => {
  if (m.type === 'cancel') controller.abort();
});

function sent(err: unknown): SentError {
  const e = err as Error & { statusCode?: unknown; code?: unknown; details?: unknown };
  return {
    name: e?.name ?? 'Error',
    message: e?.message ?? String(err),
    ...(typeof e?.statusCode === 'number' && { statusCode: e.statusCode }),
    ...(typeof e?.code === 'string' && { code: e.code }),
    ...(Array.isArray(e?.details) && { details: e.details as SentError['details'] }),
  };
}

async function main(): Promise<void> {
  const database = await openDatabaseAt(target, { listen: false });
  let answer: HeavyAnswer;
  try {
    answer = await performTask(
      database.db,
      task,
      (event) => port.postMessage({ type: 'event', event } satisfies FromHeavyWorker),
      controller.signal,
    );
  } finally {
    // Closed before the answer goes back: once answered, the thread has nothing left open.
    await database.close();
  }
  const transfer: ArrayBuffer[] = [];
  if (answer.kind === 'file' && typeof answer.file.body !== 'string') {
    // Moved, not copied; a buffer that shares its memory (Node's small-buffer pool) is copied first.
    const b = answer.file.body;
    const own = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
    answer.file.body = own;
    transfer.push(own.buffer as ArrayBuffer);
  }
  port.postMessage({ type: 'done', answer, threadId } satisfies FromHeavyWorker, transfer);
}

main()
  .catch((err: unknown) => port.postMessage({ type: 'error', error: sent(err) } satisfies FromHeavyWorker))
  .finally(() => port.close());
