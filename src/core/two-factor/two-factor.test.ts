import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox, TWO_FACTOR_KEY_FILE, TwoFactorKeyError } from './secret-box.js';
import { matchingStep, newRecoveryCodes, recoveryCodeHash } from './totp.js';

describe('TOTP codes (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1: the ASCII secret "12345678901234567890"; at 59 s the 8-digit code is 94287082.
  const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

  it('accepts the RFC test vector in its step, the step after and the step before, and names the step', () => {
    expect(matchingStep(rfcSecret, '287082', 59_000)).toBe(1);
    expect(matchingStep(rfcSecret, '287082', 89_000)).toBe(1);
    expect(matchingStep(rfcSecret, '287082', 1_000)).toBe(1);
    expect(matchingStep(rfcSecret, '287082', 119_000)).toBeNull();
    expect(matchingStep(rfcSecret, '287083', 59_000)).toBeNull();
  });

  it('makes 10 distinct recovery codes of 80 bits, hashed the same however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    const c = codes[0]!;
    expect(recoveryCodeHash(c.toUpperCase().replace(/-/g, ' '))).toBe(recoveryCodeHash(c));
    expect(recoveryCodeHash(c)).not.toBe(recoveryCodeHash(codes[1]!));
  });
});

describe('SecretBox', () => {
  it('seals for one user: another user, another key or a changed byte does not open', () => {
    const box = SecretBox.inMemory();
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'two-factor:user:7');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'two-factor:user:7')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => box.open(sealed, 'two-factor:user:8')).toThrow(TwoFactorKeyError);
    expect(() => SecretBox.inMemory().open(sealed, 'two-factor:user:7')).toThrow(TwoFactorKeyError);
    const parts = sealed.split(':');
    parts[3] = parts[3]!.startsWith('A') ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    expect(() => box.open(parts.join(':'), 'two-factor:user:7')).toThrow(TwoFactorKeyError);
  });

  it('keeps its key in the data dir (mode 600), made on first use and read back by the next server', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lims-box-'));
    const first = SecretBox.inDataDir(dir);
    expect(() => statSync(join(dir, TWO_FACTOR_KEY_FILE))).toThrow();
    const sealed = first.seal('secret', 'ctx');
    const file = join(dir, TWO_FACTOR_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(SecretBox.inDataDir(dir).open(sealed, 'ctx')).toBe('secret');
  });
});
