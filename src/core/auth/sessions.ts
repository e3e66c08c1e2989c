import { createHash, randomBytes } from 'node:crypto';
import { changeStamp, type Db } from '../db/connection.js';
import {
  deleteExpiredSessionRows,
  deleteOtherSessionRowsOfUser,
  deleteSessionRow,
  deleteSessionRowsOfUser,
  insertSessionRow,
  renameSessionRow,
  selectUserSessionIds,
  sessionWithUser,
  touchSessionRow,
} from './repository.js';
import { SESSION_LIFETIME_HOURS } from '../../shared/constants.js';
import type { Selectable } from 'kysely';
import type { SessionsTable, UsersTable } from '../db/schema.js';

/** The cookie holds a random token; the database keeps only its SHA-256, so a stolen database grants no sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A stored session as its owner and the lab's managers see it: public id, times, device, and whether it is the asker's. */
export function sessionView(
  r: Pick<SessionsTable, 'id' | 'created_at' | 'last_seen_at' | 'expires_at' | 'ip_address' | 'user_agent'>,
  currentHash: string | null,
) {
  return {
    id: publicSessionId(r.id),
    started_at: r.created_at,
    last_seen_at: r.last_seen_at,
    expires_at: r.expires_at,
    ip_address: r.ip_address,
    user_agent: r.user_agent,
    current: r.id === currentHash,
  };
}

/**
 * What a session is named by outside the server (End Session, one's own sessions list): derived from
 * the stored key (itself the SHA-256 of the cookie's token), so neither the cookie nor the database
 * key leaves the server.
 */
export function publicSessionId(storedId: string): string {
  return createHash('sha256').update(`session:${storedId}`).digest('hex').slice(0, 32);
}

export async function createSession(
  db: Db,
  user: { id: number; organization_id: number },
  meta: { ip?: string | null; userAgent?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_HOURS * 3600_000);
  await insertSessionRow(db, {
    id: hashToken(token),
    user_id: user.id,
    organization_id: user.organization_id,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    ip_address: meta.ip ?? null,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

/** Frozen: the same object answers every request of the session until the database changes. */
export interface SessionUser {
  readonly sessionId: string;
  readonly lastSeenAt: string;
  readonly user: Readonly<Selectable<UsersTable>>;
}

type SessionRow = NonNullable<Awaited<ReturnType<typeof sessionWithUser.first>>>;

/** A session row as read, with its times parsed once. */
interface Remembered {
  stamp: string;
  row: SessionRow;
  expiresMs: number;
  lastSeenMs: number;
  /** The answer for this row, made once and frozen: requests share it, and none can change it. */
  session: SessionUser;
}

/**
 * Sessions resolved since the database last changed, by token. Every request resolves its session;
 * while nothing has been written anywhere (changeStamp unchanged) the row read last time is still
 * the row the database holds, so it is reused instead of read again. Any write (a sign-out, a role
 * change, a deactivation by the CLI, the once-a-minute activity stamp) changes the stamp.
 */
const recent = new WeakMap<Db, Map<string, Remembered>>();
const RECENT_MAX = 1000;
/** Activity is recorded at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

function recentSession(db: Db, token: string, stamp: string): Remembered | undefined {
  const hit = recent.get(db)?.get(token);
  return hit?.stamp === stamp ? hit : undefined;
}

function rememberSession(db: Db, token: string, stamp: string, row: SessionRow): Remembered {
  let map = recent.get(db);
  if (!map) recent.set(db, (map = new Map()));
  map.delete(token);
  if (map.size >= RECENT_MAX) map.delete(map.keys().next().value as string);
  const remembered = parsed(stamp, row);
  map.set(token, remembered);
  return remembered;
}

function parsed(stamp: string, row: SessionRow): Remembered {
  return {
    stamp,
    row,
    expiresMs: Date.parse(row.expires_at),
    lastSeenMs: Date.parse(row.last_seen_at),
    session: sessionUserOf(row),
  };
}

function isLive(s: Remembered, idleMinutes: number, nowMs: number): boolean {
  return s.expiresMs > nowMs && nowMs - s.lastSeenMs <= idleMinutes * 60_000 && s.row.is_active === 1;
}

function sessionUserOf(row: SessionRow): SessionUser {
  const { session_id, expires_at: _e, last_seen_at, ...user } = row;
  return Object.freeze({ sessionId: session_id, lastSeenAt: last_seen_at, user: Object.freeze(user) });
}

/**
 * The session for a token from memory alone, without a read or a write: the row read earlier while
 * the database is unchanged since (see changeStamp), the session live, and its activity recorded
 * less than a minute ago. Undefined whenever resolveSession and touchSession must decide (they read
 * and write); also when `idleMinutesOf` cannot answer from memory.
 */
export function sessionFromMemory(
  db: Db,
  token: string,
  idleMinutesOf: (organizationId: number) => number | undefined,
  nowMs = Date.now(),
): SessionUser | undefined {
  const stamp = changeStamp(db);
  const hit = stamp === null ? undefined : recentSession(db, token, stamp);
  if (!hit || nowMs - hit.lastSeenMs >= TOUCH_INTERVAL_MS) return undefined;
  const idleMinutes = idleMinutesOf(hit.row.organization_id);
  if (idleMinutes === undefined || !isLive(hit, idleMinutes, nowMs)) return undefined;
  return hit.session;
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
  let hit = stamp === null ? undefined : recentSession(db, token, stamp);
  if (!hit) {
    const row = await sessionWithUser.first(db, hashToken(token));
    if (!row) return null;
    hit = stamp === null ? parsed('', row) : rememberSession(db, token, stamp, row);
  }
  if (!isLive(hit, await idleMinutesOf(hit.row.organization_id), now.getTime())) {
    recent.get(db)?.delete(token);
    await deleteSessionRow(db, hit.row.session_id);
    return null;
  }
  return hit.session;
}

/** Records activity at most once a minute, so reads do not turn into writes. */
export async function touchSession(db: Db, s: SessionUser, now = new Date()): Promise<void> {
  if (now.getTime() - Date.parse(s.lastSeenAt) < TOUCH_INTERVAL_MS) return;
  await touchSessionRow(db, s.sessionId, now.toISOString());
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await deleteSessionRow(db, hashToken(token));
}

export async function purgeExpiredSessions(db: Db, now = new Date()): Promise<void> {
  await deleteExpiredSessionRows(db, now.toISOString());
}

/** Ends every session of a user (deactivation, role change, password reset): they sign in again. */
export async function endSessionsOfUser(db: Db, userId: number): Promise<void> {
  await deleteSessionRowsOfUser(db, userId);
}

/**
 * After a change to how the user signs in (two-factor on or off, new recovery codes): every other
 * session of the user ends, and the one making the change gets a new token (the old cookie, wherever
 * a copy of it is, answers 401). The session keeps its start and its 24-hour end, so a change never
 * lengthens it. Run inside the change's transaction. `renewed` is null when the current session is
 * gone (ended elsewhere at the same moment) or there is none (the CLI).
 */
export async function renewSessionEndingOthers(
  db: Db,
  organizationId: number,
  userId: number,
  currentToken: string | null,
): Promise<{ renewed: { token: string; expiresAt: Date } | null; othersEnded: number }> {
  const currentId = currentToken === null ? null : hashToken(currentToken);
  const current = (await selectUserSessionIds(db, organizationId, userId)).find((s) => s.id === currentId);
  const othersEnded = await deleteOtherSessionRowsOfUser(db, organizationId, userId, current?.id ?? null);
  if (!current) return { renewed: null, othersEnded };
  const token = newToken();
  if (!(await renameSessionRow(db, current.id, hashToken(token)))) return { renewed: null, othersEnded };
  return { renewed: { token, expiresAt: new Date(current.expires_at) }, othersEnded };
}
