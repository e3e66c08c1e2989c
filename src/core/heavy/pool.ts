import { Worker } from 'node:worker_threads';
import type { Database_ } from '../db/connection.js';
import { DomainError } from '../errors.js';
import type { HeavyAnswer, HeavyEvent, HeavyTask } from './tasks.js';
import type { FromHeavyWorker, SentError, ToHeavyWorker } from './worker.js';

/**
 * Runs one heavy job on a worker thread (worker.ts) and answers what it answered. A thread per job,
 * started when the job's turn comes (queue.ts decides how many at once): the thread opens its own
 * database connection, so a job can never see or hold another's state, Cancel ends it cleanly,
 * and a job that runs out of memory ends its thread, not the server. Starting a thread costs a
 * few hundred milliseconds, small beside a job of seconds to minutes. (piscina, a kept pool of
 * threads, would save that start; it is not a dependency of lims: docs/decisions.md.)
 */

/** The worker's module: beside this one when compiled; run from source (tests), the compiled one of `npm run build:server`. */
function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts'))
    return new URL(here.replace(/\/src\/core\/heavy\/pool\.ts$/, '/dist/src/core/heavy/worker.js'));
  return new URL('./worker.js', here);
}

/** A heap limit per job thread: a runaway job ends its thread with an error, the server runs on. */
const HEAP_MB = 1536;

let live = 0;

/** Heavy-job threads started and not yet exited (tests check none is left behind). */
export function heavyThreads(): number {
  return live;
}

function received(e: SentError): Error {
  if (e.statusCode !== undefined && e.code !== undefined) {
    const err = new DomainError(e.statusCode, e.code, e.message, e.details);
    Object.defineProperty(err, 'name', { value: e.name });
    return err;
  }
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

export interface HeavyRun {
  answer: HeavyAnswer;
  /** The thread the job ran on (never the main thread's 0). */
  threadId: number;
}

export function runOnThread(
  database: Database_,
  task: HeavyTask,
  hooks: { onEvent?: (e: HeavyEvent) => void; signal?: AbortSignal } = {},
): Promise<HeavyRun> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), {
      workerData: { target: database.target, task },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    live += 1;
    let settled = false;
    const cancel = () => worker.postMessage({ type: 'cancel' } satisfies ToHeavyWorker);
    hooks.signal?.addEventListener('abort', cancel, { once: true });
    if (hooks.signal?.aborted) cancel();
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      hooks.signal?.removeEventListener('abort', cancel);
      fn();
    };
    // The answer is given once the thread has exited: nothing of a job outlives its answer.
    let outcome: { ok: HeavyRun } | { err: Error } | null = null;
    worker.on('message', (m: FromHeavyWorker) => {
      if (m.type === 'event') hooks.onEvent?.(m.event);
      else if (m.type === 'done') outcome ??= { ok: { answer: m.answer, threadId: m.threadId } };
      else outcome ??= { err: received(m.error) };
    });
    worker.on('error', (err) => (outcome ??= { err }));
    worker.on('exit', (code) => {
      live -= 1;
      const o = outcome ?? { err: new Error(`the job's thread stopped before it answered (exit code ${code})`) };
      settle(() => ('ok' in o ? resolve(o.ok) : reject(o.err)));
    });
  });
}
