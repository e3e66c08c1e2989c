import { z } from 'zod';

/**
 * Two-factor sign-in: a TOTP code from an authenticator app (RFC 6238: SHA-1, 6 digits,
 * 30 s) or a one-time recovery code. The secret leaves the server only in the answer that starts
 * a set-up; no other answer names it.
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** A challenge (the step after the password) lasts this long. */
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;

/** Letters and digits of recovery codes: Crockford's base32 (no i, l, o or u, easy to read aloud). */
export const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RECOVERY_LENGTH = 16;

/** "1234 56" -> "123456": apps show the code in two groups. */
const digitsOnly = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v);

export const totpCodeSchema = z.preprocess(
  digitsOnly,
  z
    .string({ error: 'Enter the 6-digit code from your authenticator app' })
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
);

/** "ABCD-efgh 2345-6789" -> "abcdefgh23456789"; O and I/L typed for 0 and 1 are read as such. */
export function normalizeRecoveryCode(v: string): string {
  return v
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1');
}

export const recoveryCodeSchema = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeRecoveryCode(v) : v),
  z
    .string({ error: 'Enter one of your recovery codes' })
    .regex(
      new RegExp(`^[${RECOVERY_ALPHABET}]{${RECOVERY_LENGTH}}$`),
      'A recovery code has 16 letters and digits, like abcd-efgh-jkmn-pqrs',
    ),
);

/** A recovery code as shown: four groups of four. */
export function formatRecoveryCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** What starting a set-up answers: the only answer that carries the secret. */
export const twoFactorSetupSchema = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as a QR code, drawn by the server (SVG markup). */
  qr_svg: z.string(),
  issuer: z.string(),
  account: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** One's own two-factor state (never the secret). */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** The lab requires two-factor sign-in of all staff (System Settings twoFactorAuth). */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const twoFactorEnableSchema = z.object({ code: totpCodeSchema });

/**
 * Turning two-factor off or making new recovery codes: proved with a current code or the password.
 * Exactly one of them.
 */
export const twoFactorConfirmSchema = z
  .object({
    code: totpCodeSchema.optional(),
    password: z.string().min(1, 'Password is required').max(200).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.code === undefined && v.password === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'Enter a code from your authenticator app or your password',
      });
    if (v.code !== undefined && v.password !== undefined)
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Give a code or the password, not both' });
  });
export type TwoFactorConfirm = z.infer<typeof twoFactorConfirmSchema>;

export const recoveryCodesSchema = z.array(z.string());

/** The answer of a right password when a second step is needed: no session yet. */
export const twoFactorChallengeSchema = z.object({
  /** Proof of the password just given; send it back with the code. Single use, bound to the user. */
  challenge: z.string(),
  /** verify: enter a code (or a recovery code); enrol: the lab requires two-factor, set it up now. */
  step: z.enum(['verify', 'enrol']),
  expires_at: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

const challengeToken = z
  .string({ error: 'challenge is required: sign in with your password first' })
  .min(20, 'challenge is not valid: sign in with your password again')
  .max(100, 'challenge is not valid: sign in with your password again');

/** The second step of sign-in: the challenge and a 6-digit code, or a recovery code. */
export const loginTwoFactorSchema = z
  .object({
    challenge: challengeToken,
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.code === undefined && v.recovery_code === undefined)
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'Enter the 6-digit code from your authenticator app' });
    if (v.code !== undefined && v.recovery_code !== undefined)
      ctx.addIssue({ code: 'custom', path: ['recovery_code'], message: 'Give a code or a recovery code, not both' });
  });
export type LoginTwoFactorInput = z.infer<typeof loginTwoFactorSchema>;

export const loginTwoFactorSetupSchema = z.object({ challenge: challengeToken });
