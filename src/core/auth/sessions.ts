import { createHash, randomBytes } from 'node:crypto';
import { changeStamp, fixedQuery, type Db } from '../db/connection.js';
import { SESSION_LIFETIME_HOURS } from '../../shared/constants.js';
import type { UserRow } from '../users/repository.js';

/** The cookie holds a random token; the database keeps only its SHA-256, so a stolen database grants no sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  db: Db,
  user: { id: number; organization_id: number },
  meta: { ip?: string | null; userAgent?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_HOURS * 3600_000);
  await db
    .insertInto('sessions')
    .values({
      id: hashToken(token),
      user_id: user.id,
      organization_id: user.organization_id,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      ip_address: meta.ip ?? null,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return { token, expiresAt };
}

export interface SessionUser {
  sessionId: string;
  lastSeenAt: string;
  user: UserRow;
}

/** Runs on every signed-in request, so it is compiled once (see fixedQuery). */
const sessionWithUser = fixedQuery((db, id: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.expires_at', 's.last_seen_at'])
    .where('s.id', '=', id),
);

type SessionRow = NonNullable<Awaited<ReturnType<typeof sessionWithUser.first>>>;

/**
 * Sessions resolved since the database last changed, by token. Every request resolves its session;
 * while nothing has been written anywhere (changeStamp unchanged) the row read last time is still
 * the row the database holds, so it is reused instead of read again. Any write (a sign-out, a role
 * change, a deactivation by the CLI, the once-a-minute activity stamp) changes the stamp.
 */
const recent = new WeakMap<Db, Map<string, { stamp: string; row: SessionRow }>>();
const RECENT_MAX = 1000;

function recentSession(db: Db, token: string, stamp: string): SessionRow | undefined {
  const hit = recent.get(db)?.get(token);
  return hit?.stamp === stamp ? hit.row : undefined;
}

function rememberSession(db: Db, token: string, stamp: string, row: SessionRow): void {
  let map = recent.get(db);
  if (!map) recent.set(db, (map = new Map()));
  map.delete(token);
  if (map.size >= RECENT_MAX) map.delete(map.keys().next().value as string);
  map.set(token, { stamp, row });
}

/**
 * The signed-in user for a token, or null when the session is unknown, expired (absolute lifetime),
 * idle for longer than the lab's session timeout, or the user has been deactivated.
 */
export async function resolveSession(
  db: Db,
  token: string,
  idleMinutesOf: (organizationId: number) => Promise<number>,
  now = new Date(),
): Promise<SessionUser | null> {
  const stamp = changeStamp(db);
  let row = stamp === null ? undefined : recentSession(db, token, stamp);
  if (!row) {
    row = await sessionWithUser.first(db, hashToken(token));
    if (!row) return null;
    if (stamp !== null) rememberSession(db, token, stamp, row);
  }
  const nowMs = now.getTime();
  const idleExpired = nowMs - Date.parse(row.last_seen_at) > (await idleMinutesOf(row.organization_id)) * 60_000;
  if (Date.parse(row.expires_at) <= nowMs || idleExpired || row.is_active !== 1) {
    recent.get(db)?.delete(token);
    await db.deleteFrom('sessions').where('id', '=', row.session_id).execute();
    return null;
  }
  const { session_id, expires_at: _e, last_seen_at, ...user } = row;
  return { sessionId: session_id, lastSeenAt: last_seen_at, user };
}

/** Records activity at most once a minute, so reads do not turn into writes. */
export async function touchSession(db: Db, s: SessionUser, now = new Date()): Promise<void> {
  if (now.getTime() - Date.parse(s.lastSeenAt) < 60_000) return;
  await db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', s.sessionId).execute();
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
}

export async function purgeExpiredSessions(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).execute();
}
