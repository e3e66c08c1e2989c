import type { Database_, Db } from '../core/db/connection.js';
import type { JobSpec } from '../core/scheduler.js';
import type { SenderLog } from '../core/messaging/sender.js';
import { pruneOldMessages, sendDueMessages } from '../core/messaging/sender.js';
import { sendDueReports } from '../core/interop-out/delivery.js';
import { sendReportMessages } from '../core/report-delivery/sender.js';
import { SWEEP_INTERVAL_MS } from '../core/notifications/sweep.js';
import { sweepOverdueBills } from '../core/billing/overdue.js';
import { sweepOverdueEquipmentWork } from '../core/equipment/overdue.js';
import { announceBackupFailure, backupIfDue } from '../core/backups/service.js';
import { labSettings, primaryOrganization } from '../core/settings/organization.js';
import { sweepExports } from '../core/data-jobs/service.js';
import { sweepUploads } from '../core/data-jobs/uploads.js';
import { queueMonthlyStatements } from '../core/centres/statement-mail.js';

/** What the jobs of `lims serve` work on: whatever database serves now (the wizard may switch it). */
export interface JobContext {
  database: () => Database_;
  log: SenderLog;
  /** The data dir's backups folder. */
  backupsDir: string;
  /** The data dir: uploads, export files and error reports of the data screens. */
  dataDir: string;
  allowPrivateOutbound: boolean;
}

const MINUTE = 60_000;

/**
 * Every recurring job of `lims serve`, in the order the System screen lists them (the analyzer
 * listeners' two jobs come from src/core/interfaces/listeners.ts and follow these). A new recurring
 * job is one entry here: its name, what it does, its period and the function it runs; the scheduler
 * (src/core/scheduler.ts) keeps runs apart, logs failures and shows them on the System screen.
 */
export function serverJobs(ctx: JobContext): JobSpec[] {
  const db = (): Db => ctx.database().db;
  const outbound = { allowPrivateOutbound: ctx.allowPrivateOutbound };
  return [
    {
      // A bill becomes overdue at the lab's midnight, calibration and maintenance on their due day.
      name: 'overdue-sweep',
      description: 'Announces overdue bills, calibration and maintenance',
      periodMs: SWEEP_INTERVAL_MS,
      firstDelayMs: 5_000,
      run: async () => {
        await sweepOverdueBills(db());
        await sweepOverdueEquipmentWork(db());
      },
    },
    {
      name: 'backups',
      description: "Takes the lab's scheduled backup when it is due",
      periodMs: 5 * MINUTE,
      firstDelayMs: MINUTE,
      run: () => scheduledBackup(ctx),
    },
    {
      // Email and SMS leave after the event's commit, from the outbox.
      name: 'outbox-send',
      description: 'Sends the email and SMS messages that are due',
      periodMs: 5_000,
      firstDelayMs: 3_000,
      run: (signal) => sendDueMessages(db(), ctx.log, signal, outbound),
    },
    {
      name: 'outbox-prune',
      description: 'Removes outbox messages older than 30 days',
      periodMs: 60 * MINUTE,
      firstDelayMs: MINUTE,
      run: () => pruneOldMessages(db(), ctx.log),
    },
    {
      // Each centre's statement of last month goes once; hourly, so a restart or a mail server set
      // up later in the month still sends it (the outbox's once-only key stops a second).
      name: 'centre-statements',
      description: "Emails each collection centre last month's statement, once",
      periodMs: 60 * MINUTE,
      firstDelayMs: 2 * MINUTE,
      run: (signal) => queueMonthlyStatements(db(), new Date(), signal),
    },
    {
      // Verified reports are pushed to the lab's receivers (MLLP, HTTP) after the commit.
      name: 'report-deliveries',
      description: "Sends verified reports to the labs' receivers",
      periodMs: 5_000,
      firstDelayMs: 4_000,
      run: (signal) => sendDueReports(db(), ctx.log, signal, outbound),
    },
    {
      // Released reports reach patients (and doctors) as a link: WhatsApp, SMS or email, from the ledger.
      name: 'report-links-send',
      description: 'Sends report links to patients and doctors',
      periodMs: 5_000,
      firstDelayMs: 4_000,
      run: (signal) => sendReportMessages(db(), ctx.log, signal, outbound),
    },
    {
      // Export files past the lab's retention days, and uploads left waiting past their hour (both
      // are also swept before each export and each upload).
      name: 'data-files-sweep',
      description: 'Removes expired export files and abandoned uploads',
      periodMs: 60 * MINUTE,
      run: async () => {
        try {
          await sweepExports(db(), ctx.dataDir);
        } finally {
          sweepUploads(ctx.dataDir);
        }
      },
    },
  ];
}

/**
 * Automatic backups (System Settings: autoBackup, backupFrequency, backupRetention; on a server
 * holding several tenants, those of the first lab, since a backup is of the whole database). A
 * failure is logged (its message names the file or the missing program, never a password),
 * recorded in backup_runs, announced on the administrators' bell, and thrown for the scheduler.
 */
async function scheduledBackup(ctx: JobContext): Promise<void> {
  const database = ctx.database();
  try {
    const org = await primaryOrganization(database.db);
    if (!org) return;
    const outcome = await backupIfDue(database, ctx.backupsDir, await labSettings(database.db, org.id));
    if (outcome)
      ctx.log.info(
        { file: outcome.run.file, bytes: outcome.run.bytes, pruned: outcome.pruned.length },
        'scheduled backup written',
      );
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.log.error({ err: message }, 'scheduled backup failed');
    const org = await primaryOrganization(database.db).catch(() => null);
    if (org) await announceBackupFailure(database.db, org.id, message).catch(() => undefined);
    throw err;
  }
}
