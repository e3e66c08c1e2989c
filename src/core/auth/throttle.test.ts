import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './throttle.js';

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
