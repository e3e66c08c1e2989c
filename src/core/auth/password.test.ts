import { describe, expect, it } from 'vitest';
import { hashPassword, scryptCost, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('uses the production cost unless a valid lower cost is configured', () => {
    expect(scryptCost(undefined)).toBe(32768);
    expect(scryptCost('1000')).toBe(32768);
    expect(scryptCost('abc')).toBe(32768);
    expect(scryptCost('1024')).toBe(1024);
  });

  it('verifies the right password and rejects a wrong one; the hash never contains the password', async () => {
    const h = await hashPassword('s3cret-pass');
    expect(h.startsWith('scrypt$')).toBe(true);
    expect(h).not.toContain('s3cret-pass');
    expect(await verifyPassword('s3cret-pass', h)).toBe(true);
    expect(await verifyPassword('s3cret-pasS', h)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});
