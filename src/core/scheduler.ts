/**
 * The one runner of recurring background jobs (the list of `lims serve`'s jobs: src/server/jobs.ts).
 * Each job runs alone: its next run is set when the run ends, so two runs of one job never overlap,
 * and a run that outlasts its period starts the next at once. A job that throws is logged with its
 * name and error code only (never its message: a database error may quote a value) and the others
 * go on; its message is kept for the System screen. Timers do not hold the process open.
 */
import type { JobStatus } from '../shared/schemas/system.js';

export type { JobStatus };

export interface JobLog {
  error: (obj: object, msg: string) => void;
}

export interface JobSpec {
  /** Short, stable, kebab-case: the log and the System screen name the job by it. */
  name: string;
  /** What the job does, in a few words for the System screen. */
  description: string;
  /** From the start of one run to the start of the next. */
  periodMs: number;
  /** Wait before the first run after start (default: one period). */
  firstDelayMs?: number;
  /** The signal aborts when the scheduler stops: a job with long work should end early on it. */
  run: (signal: AbortSignal) => Promise<unknown> | unknown;
}

export interface Scheduler {
  /** Sets every job's first timer; a second start while running does nothing. */
  start: () => void;
  /** Clears every timer, aborts the signal the jobs were given and waits for the runs under way. */
  stop: () => Promise<void>;
  /** Every job's figures, in the list's order. */
  status: () => JobStatus[];
}

/** The error's stable code (a DomainError's, a Node system error's) or its class: safe to log. */
export function errorCodeOf(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown } | null;
  if (e && typeof e.code === 'string') return e.code;
  if (e && typeof e.name === 'string') return e.name;
  return 'ERROR';
}

/** The error's first line, short: shown to the server's operator on the System screen. */
function shownMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split('\n', 1)[0]!.trim() || errorCodeOf(err);
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

interface JobState {
  spec: JobSpec;
  timer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
  runs: number;
  failures: number;
  lastRunAt: number | null;
  lastDurationMs: number | null;
  lastOutcome: 'ok' | 'failed' | null;
  nextRunAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

export function createScheduler(jobs: readonly JobSpec[], log: JobLog): Scheduler {
  const names = new Set<string>();
  for (const j of jobs) {
    if (names.has(j.name)) throw new Error(`Two background jobs are named ${j.name}`);
    if (!(j.periodMs > 0)) throw new Error(`The background job ${j.name} needs a period above 0 ms`);
    names.add(j.name);
  }
  const states: JobState[] = jobs.map((spec) => ({
    spec,
    timer: null,
    running: null,
    runs: 0,
    failures: 0,
    lastRunAt: null,
    lastDurationMs: null,
    lastOutcome: null,
    nextRunAt: null,
    lastError: null,
    lastErrorAt: null,
  }));
  let stopping: AbortController | null = null;

  const schedule = (s: JobState, delayMs: number) => {
    s.nextRunAt = Date.now() + delayMs;
    s.timer = setTimeout(() => {
      s.timer = null;
      const signal = stopping!.signal;
      const started = Date.now();
      s.running = runOnce(s, signal).finally(() => {
        s.running = null;
        if (!signal.aborted) schedule(s, Math.max(0, started + s.spec.periodMs - Date.now()));
      });
    }, delayMs);
    s.timer.unref();
  };

  const runOnce = async (s: JobState, signal: AbortSignal) => {
    const started = Date.now();
    s.nextRunAt = null;
    s.lastRunAt = started;
    try {
      await s.spec.run(signal);
      s.lastOutcome = 'ok';
    } catch (err) {
      s.lastOutcome = 'failed';
      s.failures++;
      s.lastError = shownMessage(err);
      s.lastErrorAt = Date.now();
      try {
        log.error({ job: s.spec.name, code: errorCodeOf(err) }, `the background job ${s.spec.name} failed`);
      } catch {
        // A log that throws must not end the job's schedule.
      }
    } finally {
      s.runs++;
      s.lastDurationMs = Date.now() - started;
    }
  };

  return {
    start() {
      if (stopping && !stopping.signal.aborted) return;
      stopping = new AbortController();
      for (const s of states) schedule(s, s.spec.firstDelayMs ?? s.spec.periodMs);
    },
    async stop() {
      if (!stopping) return;
      stopping.abort();
      for (const s of states) {
        if (s.timer) clearTimeout(s.timer);
        s.timer = null;
        s.nextRunAt = null;
      }
      await Promise.all(states.map((s) => s.running));
    },
    status: () =>
      states.map((s) => ({
        name: s.spec.name,
        description: s.spec.description,
        period_ms: s.spec.periodMs,
        running: s.running !== null,
        runs: s.runs,
        failures: s.failures,
        last_run_at: iso(s.lastRunAt),
        last_duration_ms: s.lastDurationMs,
        last_outcome: s.lastOutcome,
        next_run_at: iso(s.nextRunAt),
        last_error: s.lastError,
        last_error_at: iso(s.lastErrorAt),
      })),
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
