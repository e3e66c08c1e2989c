import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ColumnKind } from './cells.js';

/**
 * A CSV export of many rows on several threads (a million patients at 200,000 rows a
 * second, which one thread cannot do on two cores). The rows are cut into ranges of the walk's key
 * (ids, newest first); worker threads (export-worker.ts), each with its own read connection to the
 * SQLite file, turn ranges into CSV bytes, and the main thread writes them to the file in order.
 *
 * - One snapshot: the workers begin their read transactions while the main thread holds the write
 *   lock on a connection of its own (BEGIN IMMEDIATE), so no change can commit between one
 *   worker's snapshot and another's; the lock is released as soon as every worker has read once (a
 *   writer waits milliseconds). In WAL mode a read transaction keeps its snapshot to its end.
 * - Constant memory: at most `inFlight` ranges of at most `rangeRows` rows are given out and not yet
 *   written; the next range is given to a free worker only when the oldest one is written.
 * - Only for a SQLite file in WAL mode (sqliteWalFile), and only when the lab has at least
 *   `minRows` rows to walk (starting the workers costs more than it saves on small exports).
 */

import type { ParallelExportPlan, RangeQuery, RowFinish } from '../export/parallel-plan.js';

export type { ParallelExportPlan, RangeQuery, RowFinish };

export interface WorkerData {
  file: string;
  rows: RangeQuery;
  kinds: ColumnKind[];
  finish: RowFinish;
}

export type ToWorker = { type: 'begin' } | { type: 'range'; index: number; hi: number; lo: number } | { type: 'end' };
export type FromWorker =
  | { type: 'open' }
  | { type: 'begun' }
  | { type: 'range'; index: number; rows: number; bytes: Uint8Array }
  | { type: 'error'; name: string; message: string; code?: string };

export interface ParallelSettings {
  workers: number;
  rangeRows: number;
  /** Ranges given out and not yet written, at most. */
  inFlight: number;
  /** Fewer rows to walk than this: one thread. */
  minRows: number;
}

/**
 * Two workers on a 2-core machine (the main thread only writes); up to four where there are more
 * cores (not measured there). Figures: docs/decisions.md, "Import and export speed".
 */
export function parallelSettings(): ParallelSettings {
  const workers = Math.max(2, Math.min(4, availableParallelism()));
  return { workers, rangeRows: 20_000, inFlight: workers * 2, minRows: 50_000 };
}

/** The first key of the walk (above every id) and its last bound (below every id). */
const TOP = Number.MAX_SAFE_INTEGER;
const BOTTOM = Number.MIN_SAFE_INTEGER;

/** The key `offset` rows below `hi` in the walk's order, or undefined when there are not that many. */
function stepper(sqlite: Database.Database, step: ParallelExportPlan['step']) {
  const stmt = sqlite.prepare(step.sql).pluck();
  const params = [...step.parameters];
  params[step.loAt] = BOTTOM;
  return (hi: number, offset: number) => {
    params[step.hiAt] = hi;
    params[step.offsetAt] = offset;
    return stmt.get(...params) as number | undefined;
  };
}

/** The ranges [lo, hi) of the walk, newest first, each of `rangeRows` rows (the last of fewer). */
function rangesOf(below: ReturnType<typeof stepper>, rangeRows: number) {
  const ranges: { hi: number; lo: number }[] = [];
  let hi = TOP;
  for (;;) {
    const lo = below(hi, rangeRows - 1);
    if (lo === undefined) {
      ranges.push({ hi, lo: BOTTOM });
      return ranges;
    }
    ranges.push({ hi, lo });
    hi = lo;
  }
}

/** The worker's module: beside this one when compiled; run from source (tests), the compiled one of `npm run build:server`. */
function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.ts'))
    return new URL(here.replace(/\/src\/core\/transfer\/parallel\.ts$/, '/dist/src/core/transfer/export-worker.js'));
  return new URL('./export-worker.js', here);
}

/** An error of a worker as the main thread would have thrown it (SQLite's message and code). */
function errorOf(m: { name: string; message: string; code?: string }): Error {
  const err = new Error(m.message) as Error & { code?: string };
  err.name = m.name;
  if (m.code) err.code = m.code;
  return err;
}

let running = 0;

/** Export worker threads started and not yet exited (tests check that none is left behind). */
export function runningExportWorkers(): number {
  return running;
}

export interface ParallelExport {
  /** The worker threads reading the ranges. */
  threads: number;
  /** The CSV lines of every range, in order (the header is the caller's). Ends the workers when done or left. */
  chunks(): AsyncGenerator<{ bytes: Uint8Array; rows: number }>;
  /** Ends the workers (when chunks() is never walked). */
  close(): Promise<void>;
}

/**
 * Starts a parallel export of `plan` from the SQLite file, its workers reading one snapshot; null
 * when it would not pay (fewer than settings.minRows rows to walk) or the write lock is not free
 * within 250 ms (an import is writing): the caller exports on one thread then.
 */
export async function startParallelExport(
  file: string,
  plan: ParallelExportPlan,
  kinds: readonly ColumnKind[],
  settings: ParallelSettings,
): Promise<ParallelExport | null> {
  const lock = new Database(file, { fileMustExist: true });
  const workers: Worker[] = [];
  let ended = false;
  const endAll = async () => {
    if (ended) return;
    ended = true;
    await Promise.all(workers.map((w) => w.terminate()));
  };
  try {
    const below = stepper(lock, plan.step);
    // Fewer rows than minRows (found by stepping that far along the index, without reading rows): one thread.
    if (settings.minRows > 0 && below(TOP, settings.minRows - 1) === undefined) return null;

    // Messages of all workers in one queue, read in turn by whoever waits.
    const inbox: { worker: number; m: FromWorker | { type: 'exit'; code: number } }[] = [];
    let wake: (() => void) | null = null;
    const push = (worker: number, m: (typeof inbox)[number]['m']) => {
      inbox.push({ worker, m });
      wake?.();
      wake = null;
    };
    const next = async () => {
      while (!inbox.length) await new Promise<void>((r) => (wake = r));
      const e = inbox.shift()!;
      if (e.m.type === 'error') throw errorOf(e.m);
      if (e.m.type === 'exit') throw new Error(`an export worker stopped (exit code ${e.m.code})`);
      return e as { worker: number; m: FromWorker };
    };
    const data: WorkerData = { file, rows: plan.rows, kinds: [...kinds], finish: plan.finish };
    const count = settings.workers;
    for (let i = 0; i < count; i++) {
      const w = new Worker(workerUrl(), { workerData: data });
      running += 1;
      w.once('exit', () => (running -= 1));
      w.on('message', (m: FromWorker) => push(i, m));
      w.on('error', (err) => push(i, { type: 'error', name: err.name, message: err.message }));
      w.on('exit', (code) => {
        if (!ended) push(i, { type: 'exit', code });
      });
      workers.push(w);
    }
    // The ranges are found while the workers load.
    const ranges = rangesOf(below, settings.rangeRows);
    const all = async (type: 'open' | 'begun') => {
      for (let seen = 0; seen < count;) {
        const e = await next();
        if (e.m.type !== type) throw new Error(`export worker ${e.worker}: ${e.m.type} before ${type}`);
        seen += 1;
      }
    };
    await all('open');

    // The write lock, so that every worker's first read sees the same last commit; not waited for
    // long: a writer holding it (an import) would hold it for minutes, and one thread needs no lock.
    lock.pragma('busy_timeout = 250');
    try {
      lock.exec('BEGIN IMMEDIATE');
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
        await endAll();
        return null;
      }
      throw err;
    }
    try {
      for (const w of workers) w.postMessage({ type: 'begin' } satisfies ToWorker);
      await all('begun');
    } finally {
      lock.exec('ROLLBACK');
    }

    return {
      threads: count,
      close: endAll,
      async *chunks() {
        try {
          const done = new Map<number, { bytes: Uint8Array; rows: number }>();
          const idle = workers.map((_, i) => i);
          let given = 0;
          let written = 0;
          const give = () => {
            while (idle.length && given < ranges.length && given - written < settings.inFlight) {
              const { hi, lo } = ranges[given]!;
              workers[idle.pop()!]!.postMessage({ type: 'range', index: given, hi, lo } satisfies ToWorker);
              given += 1;
            }
          };
          give();
          while (written < ranges.length) {
            const ready = done.get(written);
            if (ready) {
              done.delete(written);
              written += 1;
              give();
              yield ready;
              continue;
            }
            const e = await next();
            if (e.m.type !== 'range') throw new Error(`export worker ${e.worker}: ${e.m.type} while exporting`);
            done.set(e.m.index, { bytes: e.m.bytes, rows: e.m.rows });
            idle.push(e.worker);
            give();
          }
          // Each worker ends its read transaction and closes its connection before it exits.
          ended = true;
          await Promise.all(
            workers.map(
              (w) =>
                new Promise<void>((resolve) => {
                  w.once('exit', () => resolve());
                  w.postMessage({ type: 'end' } satisfies ToWorker);
                }),
            ),
          );
        } finally {
          await endAll();
        }
      },
    };
  } catch (err) {
    await endAll();
    throw err;
  } finally {
    lock.close();
  }
}
