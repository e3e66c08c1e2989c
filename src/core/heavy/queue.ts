import { availableParallelism } from 'node:os';
import { DomainError } from '../errors.js';

/**
 * Heavy work (report files, import checks and imports, exports) waits here for a turn: at most
 * `perLab` jobs of one lab at once, and at most `threads` on the whole server (each runs on a worker
 * thread of its own, so more than the machine's cores only slows every one of them). Turns are
 * given first come, first served, skipping a lab already at its limit, so one lab's six exports
 * never keep another lab's one report waiting. At most `queuePerLab` wait per lab; past that the
 * request is refused (429 HEAVY_QUEUE_FULL) rather than held for minutes.
 */

export interface HeavyLimits {
  perLab: number;
  threads: number;
  queuePerLab: number;
}

export function defaultHeavyLimits(): HeavyLimits {
  return { perLab: 2, threads: Math.max(2, availableParallelism()), queuePerLab: 20 };
}

interface Waiter {
  organizationId: number;
  start: (release: () => void) => void;
  fail: (err: unknown) => void;
}

export class HeavyQueueFullError extends DomainError {
  constructor(limit: number) {
    super(
      429,
      'HEAVY_QUEUE_FULL',
      `This lab already has ${limit} reports, imports or exports waiting for their turn; try again when some have finished`,
    );
  }
}

export class HeavyQueue {
  private readonly runningByLab = new Map<number, number>();
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(public limits: HeavyLimits = defaultHeavyLimits()) {}

  /** Jobs of the lab running now, and waiting. */
  counts(organizationId: number): { running: number; waiting: number } {
    return {
      running: this.runningByLab.get(organizationId) ?? 0,
      waiting: this.waiting.filter((w) => w.organizationId === organizationId).length,
    };
  }

  private free(organizationId: number): boolean {
    return this.running < this.limits.threads && (this.runningByLab.get(organizationId) ?? 0) < this.limits.perLab;
  }

  private take(organizationId: number): () => void {
    this.running += 1;
    this.runningByLab.set(organizationId, (this.runningByLab.get(organizationId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const n = (this.runningByLab.get(organizationId) ?? 1) - 1;
      if (n > 0) this.runningByLab.set(organizationId, n);
      else this.runningByLab.delete(organizationId);
      this.next();
    };
  }

  private next(): void {
    for (let i = 0; i < this.waiting.length;) {
      const w = this.waiting[i]!;
      if (this.free(w.organizationId)) {
        this.waiting.splice(i, 1);
        w.start(this.take(w.organizationId));
      } else i += 1;
    }
  }

  /**
   * A turn for one job of the lab: `queued` says at once whether it must wait (the job is shown as
   * queued then), `turn` resolves with the function that gives the turn back when the job ends.
   * An abort while waiting rejects `turn` with the signal's reason.
   */
  enter(organizationId: number, signal?: AbortSignal): { queued: boolean; turn: Promise<() => void> } {
    if (this.free(organizationId) && !this.waiting.some((w) => w.organizationId === organizationId))
      return { queued: false, turn: Promise.resolve(this.take(organizationId)) };
    if (this.counts(organizationId).waiting >= this.limits.queuePerLab)
      throw new HeavyQueueFullError(this.limits.queuePerLab);
    let waiter!: Waiter;
    const turn = new Promise<() => void>((start, fail) => {
      waiter = { organizationId, start, fail };
    });
    this.waiting.push(waiter);
    signal?.addEventListener(
      'abort',
      () => {
        const i = this.waiting.indexOf(waiter);
        if (i === -1) return;
        this.waiting.splice(i, 1);
        waiter.fail(signal.reason);
      },
      { once: true },
    );
    return { queued: true, turn };
  }
}

/** The server's one queue (one process, one set of cores). */
export const heavyQueue = new HeavyQueue();
