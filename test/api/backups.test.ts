import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { ENGINE } from '../db.js';
import { backupIfDue, pruneBackups, recentBackupRuns } from '../../src/core/backups/service.js';
import { DEFAULT_SETTINGS } from '../../src/core/settings/organization.js';

/** Scheduled backups (System Settings: autoBackup, backupFrequency, backupRetention). */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const DAY = 24 * 3_600_000;

describe('the backup schedule', () => {
  it('takes a backup when due, not again within the frequency, and again once it has passed', async () => {
    const dir = join(tempDir(), 'backups');
    const settings = { ...DEFAULT_SETTINGS, backupFrequency: 'daily' as const };
    const t0 = new Date('2026-11-20T02:00:00Z');
    const first = await backupIfDue(lab.database, dir, settings, t0).catch((err: Error) => err);
    if (ENGINE === 'postgres' && first instanceof Error) {
      // No pg_dump of the server's version on this machine: the failure is recorded, not hidden.
      const [run] = await recentBackupRuns(lab.database.db, 1);
      expect(run).toMatchObject({ status: 'failed', reason: 'schedule' });
      expect(run!.error).toMatch(/pg_dump/);
      return;
    }
    expect(first).toMatchObject({ run: { status: 'completed', reason: 'schedule' } });
    const file = (first as { run: { file: string } }).run.file;
    expect(existsSync(file)).toBe(true);
    // Named as every backup is (src/core/backups/names.ts): the lab's clock (Asia/Kolkata) and offset.
    expect(file.split('/').at(-1)).toBe(`lims-auto-2026-11-20-07-30-00+0530.${ENGINE === 'sqlite' ? 'db' : 'dump'}`);
    expect(await backupIfDue(lab.database, dir, settings, new Date(t0.getTime() + 23 * 3_600_000))).toBeNull();
    const next = await backupIfDue(lab.database, dir, settings, new Date(t0.getTime() + DAY + 60_000));
    expect(next?.run.status).toBe('completed');
    expect(readdirSync(dir).filter((n) => n.startsWith('lims-auto-'))).toHaveLength(2);
    // Off: nothing, however long ago the last one was.
    expect(
      await backupIfDue(lab.database, dir, { ...settings, autoBackup: false }, new Date(t0.getTime() + 9 * DAY)),
    ).toBeNull();
  });

  it('removes scheduled backups older than the retention and never a backup made by hand', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const now = new Date('2026-11-25T00:00:00Z');
    const make = (name: string, ageDays: number) => {
      const f = join(dir, name);
      writeFileSync(f, 'x');
      const t = (now.getTime() - ageDays * DAY) / 1000;
      utimesSync(f, t, t);
    };
    // Names of both styles: the UTC one of older versions and today's lab time with its offset.
    make('lims-auto-20261001-020000.db', 55);
    make('lims-auto-2026-10-02-07-30-00+0530.db', 54);
    make('lims-auto-20261120-020000.db', 5);
    make('lims-auto-2026-11-21-07-30-00+0530.db', 4);
    make('lims-2026-10-01-02-00-00+0530.db', 55);
    const removed = pruneBackups(dir, 30, now);
    expect(removed.map((f) => f.split('/').at(-1)).sort()).toEqual([
      'lims-auto-2026-10-02-07-30-00+0530.db',
      'lims-auto-20261001-020000.db',
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      'lims-2026-10-01-02-00-00+0530.db',
      'lims-auto-2026-11-21-07-30-00+0530.db',
      'lims-auto-20261120-020000.db',
    ]);
  });
});

describe('Back Up Now and the list', () => {
  it('takes a backup by hand (admins only) and lists it', async () => {
    expect((await (await lab.as('lab_manager')).post('/api/settings/backups')).statusCode).toBe(403);
    const res = await lab.admin.post('/api/settings/backups');
    if (ENGINE === 'postgres') {
      // This test server was given a database URL and no data dir: nowhere to write a backup.
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/no data directory/);
      return;
    } else {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().backup).toMatchObject({ status: 'completed', reason: 'manual' });
      expect(res.json().backup.bytes).toBeGreaterThan(0);
    }
    const list = (await lab.admin.get('/api/settings/backups')).json();
    expect(list.backups[0]).toMatchObject({ reason: 'manual' });
    expect(list.directory).toMatch(/backups$/);
  });
});
