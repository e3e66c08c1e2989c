import { localFileStamp } from '../../shared/time.js';

/**
 * The one time stamp in every file name lims gives a backup (by `lims backup`, by the schedule of
 * `lims serve`, and the database kept by `lims restore`): the lab's local time with its UTC offset,
 * `2026-11-25-12-19-05+0530`, so a name reads as the clock on the lab's wall and still says which
 * instant it was. UTC before a lab exists. Names written by older versions (`lims-auto-20261125-
 * 064905.db`, `before-restore-2026-11-25T06-49-05-123Z`) are still read: restore takes any file,
 * and pruning goes by the prefix and the file's age, not by the time in its name.
 */
export function backupStamp(timeZone: string | null | undefined, now: Date = new Date()): string {
  return localFileStamp(timeZone || 'UTC', now);
}

/** `lims backup` without --out: lims-<stamp>.db (.dump on PostgreSQL). */
export function manualBackupName(stamp: string, ext: 'db' | 'dump'): string {
  return `lims-${stamp}.${ext}`;
}

/** What the schedule of `lims serve` writes, and prunes by its prefix after the retention. */
export const SCHEDULED_PREFIX = 'lims-auto-';
export function scheduledBackupName(stamp: string, ext: 'db' | 'dump'): string {
  return `${SCHEDULED_PREFIX}${stamp}.${ext}`;
}

/** The database `lims restore` replaced, kept beside it: lims.db.before-restore-<stamp>. */
export function beforeRestoreName(dbFile: string, stamp: string): string {
  return `${dbFile}.before-restore-${stamp}`;
}
