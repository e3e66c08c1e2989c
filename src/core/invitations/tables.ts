import type { Generated } from 'kysely';

/** Kysely types of invitations (migration 13). Timestamps are ISO-8601 UTC strings. */
export interface InvitationsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  /** SHA-256 (hex) of the token; the token itself is only ever in the link. */
  token_hash: string;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

declare module '../db/schema.js' {
  interface DB {
    invitations: InvitationsTable;
  }
}
