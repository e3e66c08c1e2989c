import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Database_ } from '../db/connection.js';
import type { Db } from '../db/connection.js';
import { backupDatabase } from '../db/backup.js';
import { notify } from '../notifications/service.js';
import { ConflictError, DomainError } from '../errors.js';
import { primaryOrganization } from '../settings/service.js';
import { SCHEDULED_PREFIX, backupStamp, scheduledBackupName } from './names.js';

/** A backup that could not be written: the message names the file or the missing program. */
export class BackupFailedError extends DomainError {
  constructor(message: string) {
    super(500, 'BACKUP_FAILED', `The backup failed: ${message}`);
  }
}
import type { BackupFrequency } from '../../shared/constants.js';
import type { LabSettings } from '../settings/service.js';
import type { BackupRunsTable } from './tables.js';

/**
 * Scheduled backups (System Settings: autoBackup, backupFrequency, backupRetention). `lims serve`
 * asks `backupIfDue` every few minutes; a backup is due when the last one that completed is older
 * than the frequency. It is written into the server's data dir (backups/lims-auto-<lab time and offset>.db, or
 * .dump on PostgreSQL through pg_dump) and scheduled copies older than the retention are removed.
 * Each run is a row of backup_runs, claimed in a write transaction, so of several servers on one
 * PostgreSQL database only one takes each backup.
 */

const HOUR = 3_600_000;
export const BACKUP_PERIOD_MS: Record<BackupFrequency, number> = {
  hourly: HOUR,
  daily: 24 * HOUR,
  weekly: 7 * 24 * HOUR,
  monthly: 30 * 24 * HOUR,
};
/** A run still "running" after this long was cut short (the server stopped): it no longer blocks. */
const STALE_RUN_MS = 6 * HOUR;

export type BackupRun = Omit<BackupRunsTable, 'id'> & { id: number };

export async function recentBackupRuns(db: Db, limit = 10): Promise<BackupRun[]> {
  return db.selectFrom('backup_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Claims a run: refused when another is running, or (for the schedule) when one completed within
 * the period. Inside a write transaction, which every server serialises, so two cannot both claim.
 */
async function claim(db: Db, reason: 'schedule' | 'manual', periodMs: number, now: Date): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const running = await trx
      .selectFrom('backup_runs')
      .select('id')
      .where('status', '=', 'running')
      .where('started_at', '>', new Date(now.getTime() - STALE_RUN_MS).toISOString())
      .executeTakeFirst();
    if (running) return null;
    if (reason === 'schedule') {
      const recent = await trx
        .selectFrom('backup_runs')
        .select('id')
        .where('status', '=', 'completed')
        .where('started_at', '>', new Date(now.getTime() - periodMs).toISOString())
        .executeTakeFirst();
      if (recent) return null;
    }
    const row = await trx
      .insertInto('backup_runs')
      .values({ started_at: now.toISOString(), status: 'running', reason, host: hostname() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
}

/** Removes scheduled backups (lims-auto-*) older than the retention; backups made by hand are never touched. */
export function pruneBackups(dir: string, retentionDays: number, now = new Date()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const cutoff = now.getTime() - retentionDays * 24 * HOUR;
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(SCHEDULED_PREFIX) || name.endsWith('.partial')) continue;
    const file = join(dir, name);
    if (statSync(file).mtimeMs < cutoff) {
      rmSync(file, { force: true });
      removed.push(file);
    }
  }
  return removed;
}

export interface BackupOutcome {
  run: BackupRun;
  pruned: string[];
}

/** Takes one backup now into `backupsDir` and records it; throws (after recording) when it fails. */
export async function takeBackup(
  database: Database_,
  backupsDir: string,
  settings: Pick<LabSettings, 'backupRetention' | 'backupFrequency'>,
  reason: 'schedule' | 'manual',
  now = new Date(),
): Promise<BackupOutcome | null> {
  const db = database.db;
  const id = await claim(db, reason, BACKUP_PERIOD_MS[settings.backupFrequency], now);
  if (id === null) {
    if (reason === 'manual') throw new ConflictError('A backup is already running; try again when it has finished');
    return null;
  }
  const timeZone = (await primaryOrganization(db))?.timezone;
  const file = join(
    backupsDir,
    scheduledBackupName(backupStamp(timeZone, now), database.engine === 'postgres' ? 'dump' : 'db'),
  );
  try {
    mkdirSync(backupsDir, { recursive: true, mode: 0o700 });
    const report = await backupDatabase(database, file);
    await db
      .updateTable('backup_runs')
      .set({ status: 'completed', finished_at: new Date().toISOString(), file, bytes: report.bytes })
      .where('id', '=', id)
      .execute();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db
      .updateTable('backup_runs')
      .set({ status: 'failed', finished_at: new Date().toISOString(), error: message.slice(0, 500) })
      .where('id', '=', id)
      .execute();
    throw new BackupFailedError(message);
  }
  const pruned = pruneBackups(backupsDir, settings.backupRetention, now);
  const run = await db.selectFrom('backup_runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { run, pruned };
}

/** The schedule's step: a backup when autoBackup is on and the last one is older than the frequency. */
export async function backupIfDue(
  database: Database_,
  backupsDir: string,
  settings: Pick<LabSettings, 'autoBackup' | 'backupRetention' | 'backupFrequency'>,
  now = new Date(),
): Promise<BackupOutcome | null> {
  if (!settings.autoBackup) return null;
  return takeBackup(database, backupsDir, settings, 'schedule', now);
}

/** A scheduled backup failed: the lab's administrators hear of it (notifications: backup_failed). */
export async function announceBackupFailure(db: Db, organizationId: number, error: string): Promise<void> {
  await db.transaction().execute((trx) => notify(trx, organizationId, { kind: 'backup_failed', error }));
}
