import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import {
  RECOVERY_ALPHABET,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  formatRecoveryCode,
  normalizeRecoveryCode,
} from '../../shared/schemas/two-factor.js';

/** TOTP as every authenticator app reads it (RFC 6238 defaults): SHA-1, 6 digits, 30 seconds. */
function totp(secretBase32: string, issuer = 'lims', label = 'lims'): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** A new secret: 160 random bits (RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUri(secretBase32: string, issuer: string, account: string): string {
  return totp(secretBase32, issuer, account).toString();
}

/** The otpauth URI as a QR code, drawn here (no outside service): SVG markup. */
export function qrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The 30-second step a code belongs to, when it is right for now, the step before or the step after
 * (a phone's clock a little off); else null. The caller refuses a step already used (replay).
 */
export function matchingStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  const t = totp(secretBase32);
  const delta = t.validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return t.counter({ timestamp: nowMs }) + delta;
}

/** Ten recovery codes of 16 characters (80 random bits each), as shown: abcd-efgh-jkmn-pqrs. */
export function newRecoveryCodes(n = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: n }, () =>
    formatRecoveryCode(
      Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''),
    ),
  );
}

/**
 * What is stored of a recovery code: the SHA-256 of its normalised form. 80 random bits are beyond
 * guessing from the hash, so a slow password hash would add nothing but time.
 */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256')
    .update(`lims-recovery:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}
