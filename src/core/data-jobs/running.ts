/** The data jobs this server runs now: their live progress and their Cancel. */

// ---------------------------------------------------------------- running jobs

export interface Running {
  organizationId: number;
  controller: AbortController;
  processed: number;
  errors: number;
  percent: number | null;
  /** Waiting for the lab's turn of heavy work (shown as queued). */
  queued: boolean;
  done: Promise<unknown>;
}

/** Jobs this server runs now, by id: their live progress and their Cancel. */
export const running = new Map<number, Running>();

/** Waits for this server's running jobs, cancelling them first when asked (the server is stopping). */
export async function stopJobs(cancel: boolean): Promise<void> {
  const all = [...running.values()];
  if (cancel) for (const j of all) j.controller.abort();
  await Promise.allSettled(all.map((j) => j.done));
}
