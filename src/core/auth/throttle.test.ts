import { describe, expect, it } from 'vitest';
import { LoginThrottle, SignInLimits } from './throttle.js';

const MIN = 60_000;

describe('LoginThrottle', () => {
  it('lets the first failures through and locks at the limit', () => {
    const t = new LoginThrottle(3, 15 * MIN);
    const now = 1_000_000;
    t.fail(['k'], now);
    t.fail(['k'], now + 1000);
    expect(t.retryAfter(['k'], now + 2000)).toBe(0);
    t.fail(['k'], now + 2000);
    // The window runs from the oldest of the three failures, two seconds earlier.
    expect(t.retryAfter(['k'], now + 2000)).toBe(15 * 60 - 2);
  });

  it('counts the wait from the oldest failure that still counts, and unlocks when it ages out', () => {
    const t = new LoginThrottle(2, 10 * MIN);
    t.fail(['k'], 0);
    t.fail(['k'], 4 * MIN);
    expect(t.retryAfter(['k'], 5 * MIN)).toBe(5 * 60);
    expect(t.retryAfter(['k'], 10 * MIN)).toBe(0);
  });

  it('keeps keys apart, and answers the longest wait of the keys asked', () => {
    const t = new LoginThrottle(1, 10 * MIN);
    t.fail(['email:a'], 0);
    expect(t.retryAfter(['email:b'], 0)).toBe(0);
    t.fail(['ip:x'], 5 * MIN);
    expect(t.retryAfter(['email:a', 'ip:x'], 6 * MIN)).toBe(9 * 60);
  });

  it('a success clears the key', () => {
    const t = new LoginThrottle(2, 10 * MIN);
    t.fail(['k'], 0);
    t.fail(['k'], 1);
    t.succeed(['k']);
    expect(t.retryAfter(['k'], 2)).toBe(0);
  });
});

describe('SignInLimits', () => {
  const limits = () => new SignInLimits({ perPair: 3, perAddress: 5, backoffAfter: 4, maxBackoffSeconds: 30 });
  const failOnce = (l: SignInLimits, account: string, ip: string, now: number) => {
    const t = l.reserve(account, ip, now);
    if (typeof t === 'number') throw new Error(`refused: wait ${t}`);
    t.fail(now);
  };

  it('reserves attempts before the check: N at once, at most the limit go ahead', () => {
    const l = limits();
    const tickets = Array.from({ length: 10 }, () => l.reserve('email:a', '10.0.0.1', 0));
    expect(tickets.filter((t) => typeof t !== 'number')).toHaveLength(3);
    expect(tickets.filter((t) => typeof t === 'number')).toHaveLength(7);
  });

  it('locks the (account, address) pair, not the account: the same account from another address goes ahead', () => {
    const l = limits();
    for (let i = 0; i < 3; i++) failOnce(l, 'email:a', '10.0.0.1', i);
    expect(l.reserve('email:a', '10.0.0.1', 10)).toBeGreaterThan(0);
    expect(typeof l.reserve('email:a', '10.0.0.2', 10)).toBe('object');
  });

  it('slows an account guessed from many addresses: 5 s, then doubling, capped; never a lockout', () => {
    const l = limits();
    for (let i = 0; i < 4; i++) failOnce(l, 'email:a', `10.0.1.${i}`, 0);
    expect(l.reserve('email:a', '10.0.2.1', 1000)).toBe(4);
    failOnce(l, 'email:a', '10.0.2.1', 5000);
    expect(l.backoff('email:a', 5000)).toBe(10);
    for (let i = 0; i < 5; i++) failOnce(l, 'email:a', `10.0.3.${i}`, 60_000 * (i + 1));
    expect(l.backoff('email:a', 300_000)).toBe(30);
    expect(typeof l.reserve('email:a', '10.0.4.1', 330_000)).toBe('object');
  });

  it('an administrator unlock forgets the account everywhere; a success keeps the address count', () => {
    const l = limits();
    for (let i = 0; i < 3; i++) failOnce(l, 'email:a', '10.0.0.1', i);
    l.unlock('email:a');
    const t = l.reserve('email:a', '10.0.0.1', 10);
    expect(typeof t).toBe('object');
    if (typeof t !== 'number') t.succeed();
    expect(l.addresses.failures('ip:10.0.0.1', 10)).toBe(3);
  });

  it('a ticket ends once: release after fail does not give back another attempt', () => {
    const l = limits();
    const a = l.reserve('email:a', '10.0.0.1', 0);
    const b = l.reserve('email:a', '10.0.0.1', 0);
    if (typeof a === 'number' || typeof b === 'number') throw new Error('refused');
    a.fail(0);
    a.release();
    a.release();
    // b is still in flight: 1 failure + 1 in flight, so one more may start (limit 3), not two.
    expect(typeof l.reserve('email:a', '10.0.0.1', 1)).toBe('object');
    expect(l.reserve('email:a', '10.0.0.1', 1)).toBeGreaterThan(0);
  });
});
