import { LOGIN_LOCKOUT_MINUTES, LOGIN_MAX_FAILURES } from '../../shared/constants.js';

/**
 * Failed sign-ins per key (email and client address, counted separately). After LOGIN_MAX_FAILURES
 * failures within the window, further attempts are refused until the window passes. Kept in memory:
 * one lims process serves one lab; a restart clears it, which is acceptable for a LAN service.
 */
export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();
  constructor(
    readonly maxFailures = LOGIN_MAX_FAILURES,
    readonly windowMs = LOGIN_LOCKOUT_MINUTES * 60_000,
  ) {}

  #recent(key: string, now: number): number[] {
    const list = (this.#failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.#failures.set(key, list);
    else this.#failures.delete(key);
    return list;
  }

  /** Seconds to wait when any key is locked, else 0. */
  retryAfter(keys: string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const list = this.#recent(key, now);
      if (list.length >= this.maxFailures) {
        const oldest = list[list.length - this.maxFailures]!;
        wait = Math.max(wait, Math.ceil((oldest + this.windowMs - now) / 1000));
      }
    }
    return wait;
  }

  fail(keys: string[], now = Date.now()): void {
    for (const key of keys) {
      const list = this.#recent(key, now);
      list.push(now);
      this.#failures.set(key, list);
    }
  }

  succeed(keys: string[]): void {
    for (const key of keys) this.#failures.delete(key);
  }
}
