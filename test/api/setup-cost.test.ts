/**
 * POST /api/setup on a lab that is already set up answered 409 only after hashing the
 * administrator password (scrypt, 32 MiB), so anyone could burn the server's CPU. It must answer
 * before any hashing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as PasswordModule from '../../src/core/auth/password.js';

const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/core/auth/password.js', async (original) => {
  const real = await original<typeof PasswordModule>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hashes.count += 1;
      return real.hashPassword(password);
    },
  };
});

const { makeLab } = await import('../helpers.js');
type Lab = Awaited<ReturnType<typeof makeLab>>;
let lab: Lab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

describe('setup on a lab that is set up', () => {
  it('answers 409 without hashing the password', async () => {
    const before = hashes.count;
    const res = await lab.app.inject({
      method: 'POST',
      url: '/api/setup',
      payload: {
        labName: 'Another Lab',
        adminName: 'Eve',
        adminEmail: 'eve@evil.test',
        adminPassword: 'long-enough-pass-1',
        confirmPassword: 'long-enough-pass-1',
        timezone: 'Asia/Kolkata',
        currency: 'INR',
        dateFormat: 'DD/MM/YYYY',
      },
    });
    expect(res.statusCode).toBe(409);
    expect(hashes.count - before).toBe(0);
  });
});
