import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { ensureSettings } from '../lab-reports/service.js';
import { settingsRow } from '../lab-reports/repository.js';
import { insertToken } from './links-repository.js';

/**
 * A report link's token: "L<lab>.<32 random characters>.<signature>". The random part (192 bits) is
 * what makes it unguessable; the signature (HMAC-SHA256 with the lab's report-verification secret,
 * cut to 128 bits) lets a forged or mistyped token be refused before any lookup. Only the token's
 * SHA-256 is stored: the token itself exists in the message that carried it and on the screen
 * that showed it.
 */

const LINK_TOKEN = /^L(\d{1,10})\.([A-Za-z0-9_-]{32})\.([A-Za-z0-9_-]{22})$/;

function signature(secret: string, organizationId: number, random: string): string {
  return createHmac('sha256', secret)
    .update(`report-link:${organizationId}:${random}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new token for a link, stored as its hash with its expiry; answers the token and when it expires. */
export async function mintToken(
  db: Db,
  link: { id: number; organization_id: number },
  days: number,
  now: Date,
): Promise<{ token: string; expiresAt: string }> {
  const { verify_secret } = await ensureSettings(db, link.organization_id);
  const random = randomBytes(24).toString('base64url');
  const token = `L${link.organization_id}.${random}.${signature(verify_secret, link.organization_id, random)}`;
  const expiresAt = new Date(now.getTime() + days * 86_400_000).toISOString();
  await insertToken(db, {
    token_hash: tokenHash(token),
    organization_id: link.organization_id,
    link_id: link.id,
    created_at: now.toISOString(),
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/** The lab a well-formed, correctly signed link token belongs to; null for anything else. */
export async function signedLabOf(db: Db, token: string): Promise<number | null> {
  const m = LINK_TOKEN.exec(token);
  if (!m) return null;
  const organizationId = Number(m[1]);
  // Read only: a token naming a lab that never made links must not create its settings.
  const row = await settingsRow(db, organizationId);
  if (!row) return null;
  const expected = Buffer.from(signature(row.verify_secret, organizationId, m[2]!));
  const given = Buffer.from(m[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? organizationId : null;
}

export const isLinkToken = (token: string): boolean => token.startsWith('L');

/** The page address of a token: the lab's public address (Lab Reports settings), else the request's. */
export async function linkUrl(db: Db, organizationId: number, token: string, requestBase: string | null) {
  const base = (await ensureSettings(db, organizationId)).public_url ?? requestBase;
  return base ? `${base.replace(/\/+$/, '')}/report-link#${token}` : null;
}
