import type { Database_ } from '../db/connection.js';
import type { ReportFile } from '../reports/files.js';
import { runOnThread, type HeavyRun } from './pool.js';
import { heavyQueue } from './queue.js';
import type { HeavyEvent, HeavyTask } from './tasks.js';

/**
 * The two ways heavy work is run: a file the request waits for (a report's PDF, XLSX or CSV; the
 * monthly PDF), and a data job the request only starts (an import, an export), which answers at
 * once with the job shown queued or running. Both take a turn in the lab's queue (queue.ts) and
 * run on a thread of their own (pool.ts).
 */

/** A report file made on a thread once the lab has a free turn; the request waits for both. */
export async function heavyFile(
  database: Database_,
  task: HeavyTask & { kind: 'report' | 'monthly' | 'accounts' },
): Promise<ReportFile> {
  const release = await heavyQueue.enter(task.actor.organizationId).turn;
  try {
    const { answer } = await runOnThread(database, task);
    if (answer.kind !== 'file') throw new Error(`a ${task.kind} job answered ${answer.kind}`);
    const b = answer.file.body;
    return { ...answer.file, body: typeof b === 'string' ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
  } finally {
    release();
  }
}

/** A job the request waits for that answers something other than a file (an import's check). */
export async function heavyWait(
  database: Database_,
  task: HeavyTask,
  onEvent?: (e: HeavyEvent) => void,
): Promise<HeavyRun> {
  const release = await heavyQueue.enter(task.actor.organizationId).turn;
  try {
    return await runOnThread(database, task, { onEvent });
  } finally {
    release();
  }
}

/**
 * A background job: `queued` says at once whether it waits for a turn; `done` settles when it has
 * run (or was cancelled while it waited: rejects with the signal's reason, and `run` never starts).
 */
export function heavyBackground(
  organizationId: number,
  signal: AbortSignal,
  run: () => Promise<void>,
): { queued: boolean; done: Promise<void> } {
  const { queued, turn } = heavyQueue.enter(organizationId, signal);
  return {
    queued,
    done: turn.then(async (release) => {
      try {
        await run();
      } finally {
        release();
      }
    }),
  };
}
