import { LOGIN_LOCKOUT_MINUTES, LOGIN_MAX_FAILURES } from '../../shared/constants.js';

/**
 * Failed attempts per key within a window. After `maxFailures` failures (counting the attempts
 * still being checked) further attempts on that key are refused until the oldest failure ages
 * out of the window. Kept in memory: a restart clears it.
 *
 * Attempts are reserved before the password or PIN is checked, not counted after: the hash is
 * asynchronous, so twenty attempts sent at once would otherwise all be checked before the first
 * failure was counted. A reservation becomes a failure (`fail`), or is released on
 * success (`succeed`, which also clears the key's failures) or on an error (`release`).
 */
export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly #pending = new Map<string, number>();
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

  /** Failures of the key still inside the window. */
  failures(key: string, now = Date.now()): number {
    return this.#recent(key, now).length;
  }

  /**
   * Seconds to wait when any key is locked (failures plus attempts in flight at the limit), else 0.
   * `max`: this check's limit, when it is not the throttle's own (a lab's login attempts setting).
   */
  retryAfter(keys: string[], now = Date.now(), max = this.maxFailures): number {
    let wait = 0;
    for (const key of keys) {
      const list = this.#recent(key, now);
      const inFlight = this.#pending.get(key) ?? 0;
      if (list.length + inFlight >= max) {
        // Locked by failures: until the oldest that counts ages out. Only by attempts in flight: a second.
        const oldest = list.length >= max ? list[list.length - max] : undefined;
        wait = Math.max(wait, oldest === undefined ? 1 : Math.ceil((oldest + this.windowMs - now) / 1000));
      }
    }
    return wait;
  }

  /** Takes one attempt on every key, or none: the wait in seconds when a key is at its limit, else 0. */
  reserve(keys: string[], now = Date.now(), max = this.maxFailures): number {
    const wait = this.retryAfter(keys, now, max);
    if (wait > 0) return wait;
    for (const key of keys) this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
    return 0;
  }

  /** Gives back reserved attempts without counting them (the check could not run). */
  release(keys: string[]): void {
    for (const key of keys) {
      const n = (this.#pending.get(key) ?? 0) - 1;
      if (n > 0) this.#pending.set(key, n);
      else this.#pending.delete(key);
    }
  }

  /** The reserved attempts failed: they count. Also usable without a reservation. */
  fail(keys: string[], now = Date.now()): void {
    for (const key of keys) {
      if (this.#pending.has(key)) this.release([key]);
      const list = this.#recent(key, now);
      list.push(now);
      this.#failures.set(key, list);
    }
  }

  /** The reserved attempts succeeded: released, and the keys' failures forgotten. */
  succeed(keys: string[]): void {
    for (const key of keys) {
      if (this.#pending.has(key)) this.release([key]);
      this.#failures.delete(key);
    }
  }

  /** Forgets every key that starts with the prefix (an administrator unlocking an account). */
  clear(prefix: string): number {
    let n = 0;
    for (const key of [...this.#failures.keys()]) {
      if (key.startsWith(prefix)) {
        this.#failures.delete(key);
        n++;
      }
    }
    return n;
  }

  /** The latest failure of the key inside the window (ms), or null. */
  lastFailure(key: string, now = Date.now()): number | null {
    const list = this.#recent(key, now);
    return list.length ? list[list.length - 1]! : null;
  }
}

/** The first wait of an account past its backoff threshold, in seconds. */
export const BACKOFF_BASE_SECONDS = 5;

/**
 * The sign-in limits of one kind of account (staff by email, portal by patient code):
 * - per (account, address): `perPair` failures lock that pair for the window: a wrong password
 *   typed at one PC does not lock the account at another;
 * - per address: `perAddress` failures lock the address (one PC guessing many accounts);
 * - per account, from everywhere: past `backoffAfter` failures each further attempt must wait a
 *   delay (5 s, doubling with each failure, up to `maxBackoffSeconds`): slowed, never locked, so
 *   nobody can lock the real user out by guessing from elsewhere.
 */
export class SignInLimits {
  readonly pairs: LoginThrottle;
  readonly addresses: LoginThrottle;
  readonly accounts: LoginThrottle;

  constructor(
    readonly opts: {
      perPair: number;
      perAddress: number;
      backoffAfter: number;
      maxBackoffSeconds: number;
      windowMs?: number;
    },
  ) {
    const w = opts.windowMs ?? LOGIN_LOCKOUT_MINUTES * 60_000;
    this.pairs = new LoginThrottle(opts.perPair, w);
    this.addresses = new LoginThrottle(opts.perAddress, w);
    // Never locks by count (backoff below decides); the window still ages failures out.
    this.accounts = new LoginThrottle(Number.MAX_SAFE_INTEGER, w);
  }

  #keys(account: string, address: string) {
    return { pair: [`${account}|${address}`], address: [`ip:${address}`], account: [account] };
  }

  /** Seconds the account must still wait after its latest failure, from the global backoff. */
  backoff(account: string, now = Date.now()): number {
    const n = this.accounts.failures(account, now);
    if (n < this.opts.backoffAfter) return 0;
    const delay = Math.min(this.opts.maxBackoffSeconds, BACKOFF_BASE_SECONDS * 2 ** (n - this.opts.backoffAfter));
    const last = this.accounts.lastFailure(account, now) ?? now;
    return Math.max(0, Math.ceil((last + delay * 1000 - now) / 1000));
  }

  /**
   * Reserves one attempt for the account from the address: a ticket to end with `fail` or
   * `succeed` (or `release`, when the check could not run; ending twice does nothing), or the
   * seconds to wait, and nothing is reserved. `perPair`: the account's lab's own limit, if any.
   */
  reserve(account: string, address: string, now = Date.now(), perPair = this.opts.perPair): SignInTicket | number {
    const k = this.#keys(account, address);
    const wait = Math.max(
      this.pairs.retryAfter(k.pair, now, perPair),
      this.addresses.retryAfter(k.address, now),
      this.backoff(account, now),
    );
    if (wait > 0) return wait;
    this.pairs.reserve(k.pair, now, perPair);
    this.addresses.reserve(k.address, now);
    let open = true;
    const end = (how: 'fail' | 'succeed' | 'release', at = Date.now()) => {
      if (!open) return;
      open = false;
      if (how === 'fail') {
        this.pairs.fail(k.pair, at);
        this.addresses.fail(k.address, at);
        this.accounts.fail(k.account, at);
      } else if (how === 'succeed') {
        this.pairs.succeed(k.pair);
        this.addresses.release(k.address);
        this.accounts.succeed(k.account);
      } else {
        this.pairs.release(k.pair);
        this.addresses.release(k.address);
      }
    };
    return { fail: (at?: number) => end('fail', at), succeed: () => end('succeed'), release: () => end('release') };
  }

  /** An administrator unlocks the account: its failures from every address are forgotten. */
  unlock(account: string): void {
    this.pairs.clear(`${account}|`);
    this.accounts.succeed([account]);
  }

  /** Whether the account is slowed or locked somewhere, for the admin's screen. */
  status(account: string, now = Date.now()): { failures: number; backoff_seconds: number } {
    return { failures: this.accounts.failures(account, now), backoff_seconds: this.backoff(account, now) };
  }
}

/**
 * The sign-in limits' key of a staff account: its lab and email. One email may have accounts in
 * several labs; failures against one never lock, slow or show on another. `null`: a sign-in for a
 * lab that does not exist (counted on its own key, against no account).
 */
export function staffAccountKey(organizationId: number | null, email: string): string {
  return `email:${organizationId ?? '-'}:${email.toLowerCase()}`;
}

/** One reserved sign-in attempt. */
export interface SignInTicket {
  /** `at`: when it failed (ms; now unless said, for tests). */
  fail(at?: number): void;
  succeed(): void;
  release(): void;
}

/** "Try again in 12 seconds" / "in 3 minutes". */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const m = Math.ceil(seconds / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}
