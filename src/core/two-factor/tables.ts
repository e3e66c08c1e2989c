import type { Generated } from 'kysely';

/** Kysely table types of two-factor sign-in (migration 011). Timestamps are ISO-8601 UTC strings. */

export interface UserTwoFactorTable {
  user_id: number;
  organization_id: number;
  /** The TOTP secret, sealed (secret-box.ts); null while two-factor is off. */
  secret: string | null;
  /** When it was switched on; null: off. */
  enabled_at: string | null;
  /** The 30-second step of the last code accepted: a code of that step or earlier is refused (replay). */
  last_used_step: number | null;
  /** A set-up started on the account screen and not yet confirmed with a code (sealed). */
  pending_secret: string | null;
  pending_created_at: string | null;
  updated_at: string;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number;
  /** SHA-256 (hex) of the normalised code. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface TwoFactorChallengesTable {
  /** SHA-256 (hex) of the token the browser holds. */
  id: string;
  user_id: number;
  organization_id: number;
  purpose: 'verify' | 'enrol';
  /** enrol: the secret offered at sign-in (sealed), until confirmed. */
  pending_secret: string | null;
  attempts: number;
  created_at: string;
  expires_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    user_two_factor: UserTwoFactorTable;
    two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
    two_factor_challenges: TwoFactorChallengesTable;
  }
}
