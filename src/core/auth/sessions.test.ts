import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTSIDE_CHANGES_CHECK_MS, openDatabase, type SqliteDatabase } from '../db/connection.js';
import { createSession, deleteSession, resolveSession, sessionFromMemory, touchSession } from './sessions.js';

const opened: { database: SqliteDatabase; dir: string }[] = [];

afterEach(async () => {
  for (const { database, dir } of opened.splice(0)) {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A database with one lab and one active receptionist; returns the user's id. */
function labWithUser(): { d: SqliteDatabase; userId: number } {
  const dir = mkdtempSync(join(tmpdir(), 'lims-sessions-'));
  const d = openDatabase(join(dir, 'lims.db'));
  opened.push({ database: d, dir });
  const now = new Date().toISOString();
  const org = d.sqlite
    .prepare('INSERT INTO organizations (name, created_at, updated_at) VALUES (?, ?, ?)')
    .run('Lab', now, now);
  const user = d.sqlite
    .prepare(
      `INSERT INTO users (organization_id, email, password_hash, first_name, last_name, role, created_at, updated_at)
       VALUES (?, 'rita@lab.test', 'not-a-real-hash', 'Rita', 'Rao', 'receptionist', ?, ?)`,
    )
    .run(org.lastInsertRowid, now, now);
  return { d, userId: Number(user.lastInsertRowid) };
}

/**
 * Deactivates the user through a connection of its own (as the CLI would), then waits until this
 * process's check for changes made outside it is due.
 */
async function deactivateFromOutside(d: SqliteDatabase, userId: number): Promise<void> {
  const cli = new Database(d.file);
  try {
    cli.prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(userId);
  } finally {
    cli.close();
  }
  await new Promise((r) => setTimeout(r, OUTSIDE_CHANGES_CHECK_MS + 10));
}

const thirtyMinutes = async () => 30;

describe('resolveSession, asked again and again for the same token', () => {
  it('sees a deactivation made by another connection (the CLI) within a quarter of a second', async () => {
    const { d, userId } = labWithUser();
    const { token } = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    expect((await resolveSession(d.db, token, thirtyMinutes))?.user.id).toBe(userId);
    expect((await resolveSession(d.db, token, thirtyMinutes))?.user.id).toBe(userId);
    await deactivateFromOutside(d, userId);
    expect(await resolveSession(d.db, token, thirtyMinutes)).toBeNull();
  });

  it('sees a role change made through the app at once', async () => {
    const { d, userId } = labWithUser();
    const { token } = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    expect((await resolveSession(d.db, token, thirtyMinutes))?.user.role).toBe('receptionist');
    await d.db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute();
    expect((await resolveSession(d.db, token, thirtyMinutes))?.user.role).toBe('admin');
  });

  it('refuses the token after sign-out, and after the idle timeout', async () => {
    const { d, userId } = labWithUser();
    const first = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    expect(await resolveSession(d.db, first.token, thirtyMinutes)).not.toBeNull();
    await deleteSession(d.db, first.token);
    expect(await resolveSession(d.db, first.token, thirtyMinutes)).toBeNull();

    const second = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    expect(await resolveSession(d.db, second.token, thirtyMinutes)).not.toBeNull();
    const later = new Date(Date.now() + 31 * 60_000);
    expect(await resolveSession(d.db, second.token, thirtyMinutes, later)).toBeNull();
    expect(await resolveSession(d.db, second.token, thirtyMinutes)).toBeNull();
  });

  it('gives every request a user object that cannot be changed', async () => {
    const { d, userId } = labWithUser();
    const { token } = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    const a = await resolveSession(d.db, token, thirtyMinutes);
    const b = await resolveSession(d.db, token, thirtyMinutes);
    expect(a?.user).toEqual(b?.user);
    // Shared between requests, so it cannot be changed by one of them.
    expect(Object.isFrozen(a?.user)).toBe(true);
    expect(() => {
      (a!.user as { role: string }).role = 'superadmin';
    }).toThrow(TypeError);
    expect((await resolveSession(d.db, token, thirtyMinutes))?.user.role).toBe('receptionist');
  });
});

describe('sessionFromMemory: the signed-in request decided without reading or writing', () => {
  const idle30 = () => 30;

  it('knows nothing of a token until resolveSession has read it', async () => {
    const { d, userId } = labWithUser();
    const { token } = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    expect(sessionFromMemory(d.db, token, idle30)).toBeUndefined();
    await resolveSession(d.db, token, thirtyMinutes);
    const known = sessionFromMemory(d.db, token, idle30);
    expect(known?.user.id).toBe(userId);
  });

  it('forgets it as soon as the database changes, from this connection or another', async () => {
    const { d, userId } = labWithUser();
    const { token } = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    await resolveSession(d.db, token, thirtyMinutes);
    await d.db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute();
    expect(sessionFromMemory(d.db, token, idle30)).toBeUndefined();
    expect((await resolveSession(d.db, token, thirtyMinutes))?.user.role).toBe('admin');
    expect(sessionFromMemory(d.db, token, idle30)?.user.role).toBe('admin');

    await deactivateFromOutside(d, userId);
    expect(sessionFromMemory(d.db, token, idle30)).toBeUndefined();
    expect(await resolveSession(d.db, token, thirtyMinutes)).toBeNull();
  });

  it('leaves the decision to the database when activity is due to be recorded, the session is idle or expired, or the timeout is not known', async () => {
    const { d, userId } = labWithUser();
    const { token } = await createSession(d.db, { id: userId, organization_id: 1 }, {});
    const session = await resolveSession(d.db, token, thirtyMinutes);
    const now = Date.now();
    expect(sessionFromMemory(d.db, token, idle30, now)).toBeDefined();
    expect(sessionFromMemory(d.db, token, () => undefined, now)).toBeUndefined();
    // A minute on, activity is due: touchSession writes it, and the row is read again.
    expect(sessionFromMemory(d.db, token, idle30, now + 61_000)).toBeUndefined();
    await touchSession(d.db, session!, new Date(now + 61_000));
    expect(sessionFromMemory(d.db, token, idle30, now + 62_000)).toBeUndefined();
    await resolveSession(d.db, token, thirtyMinutes, new Date(now + 62_000));
    expect(sessionFromMemory(d.db, token, idle30, now + 62_000)).toBeDefined();
    // An idle timeout shorter than the time since the last activity, or a session past its lifetime.
    expect(sessionFromMemory(d.db, token, () => 0, now + 62_000 + 1_000)).toBeUndefined();
    expect(sessionFromMemory(d.db, token, idle30, now + 30 * 24 * 3600_000)).toBeUndefined();
  });
});
