import type { FastifyInstance } from 'fastify';
import type { Database_ } from '../core/db/connection.js';
import { announceBackupFailure, backupIfDue } from '../core/backups/service.js';
import { labSettings, primaryOrganization } from '../core/settings/organization.js';

/** How often `lims serve` asks whether a scheduled backup is due, and the first ask after start. */
const CHECK_EVERY_MS = 5 * 60_000;
const FIRST_CHECK_MS = 60_000;

/**
 * Automatic backups while `lims serve` runs (System Settings: autoBackup, backupFrequency,
 * backupRetention of the lab; on a server holding several tenants, of the first lab, since a backup
 * is of the whole database). A failure is logged (the message names the file or the missing
 * program, never a password) and recorded in backup_runs for the Database section.
 */
export function startBackupSchedule(
  current: () => { app: FastifyInstance; database: Database_ },
  backupsDir: string,
): () => void {
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    const { app, database } = current();
    try {
      const org = await primaryOrganization(database.db);
      if (!org) return;
      const outcome = await backupIfDue(database, backupsDir, await labSettings(database.db, org.id));
      if (outcome)
        app.serverLog.info(
          { file: outcome.run.file, bytes: outcome.run.bytes, pruned: outcome.pruned.length },
          'scheduled backup written',
        );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      app.serverLog.error({ err: message }, 'scheduled backup failed');
      // The administrators hear of it on their bell (notifications: backup_failed).
      const org = await primaryOrganization(database.db).catch(() => null);
      if (org) await announceBackupFailure(database.db, org.id, message).catch(() => undefined);
    } finally {
      busy = false;
    }
  };
  // The catch-all keeps a failure of the failure path (the log, the bell) from ending the process.
  const run = () => void check().catch(() => undefined);
  const first = setTimeout(run, FIRST_CHECK_MS);
  const every = setInterval(run, CHECK_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
