/**
 * Runs `once` shortly after start and then every `intervalMs`, one run at a time (a run still going
 * when the timer fires again is not doubled); the timers do not hold the process open. `stop` ends
 * the timers, aborts the signal `once` was given and waits for the run in progress. Used by the
 * email/SMS outbox sender and the report sender of `lims serve`.
 */
export function startTimerLoop(
  once: (signal: AbortSignal) => Promise<void>,
  onError: (err: unknown) => void,
  opts: { firstDelayMs: number; intervalMs: number },
): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const stopping = new AbortController();
  const run = () => {
    if (running) return;
    running = once(stopping.signal)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, opts.firstDelayMs);
  const every = setInterval(run, opts.intervalMs);
  first.unref();
  every.unref();
  return {
    stop: async () => {
      stopping.abort();
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
