/**
 * Two-factor sign-in. A user's authenticator lives beside the users row (never in it:
 * every signed-in request reads the users row with the session). The TOTP secret is stored sealed
 * (AES-256-GCM with a key file in the data dir, src/core/two-factor/secret-box.ts), so a database
 * dump alone does not give it away; recovery codes only as SHA-256 hashes (80 random bits each).
 * A challenge is the proof of a right password waiting for its code: the token's SHA-256 is the id,
 * it lasts 5 minutes and is deleted when used, so it works on any server of a chain.
 */
export const sql = /* sql */ `
CREATE TABLE user_two_factor (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  secret TEXT,
  enabled_at TEXT,
  last_used_step INTEGER,
  pending_secret TEXT,
  pending_created_at TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((secret IS NULL) = (enabled_at IS NULL))
);
CREATE INDEX user_two_factor_org ON user_two_factor (organization_id);

CREATE TABLE two_factor_recovery_codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  code_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX two_factor_recovery_codes_user ON two_factor_recovery_codes (user_id, code_hash);

CREATE TABLE two_factor_challenges (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  purpose TEXT NOT NULL CHECK (purpose IN ('verify','enrol')),
  pending_secret TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX two_factor_challenges_expiry ON two_factor_challenges (expires_at);
`;
