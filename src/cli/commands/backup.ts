import { formatBytes } from '../../shared/bytes.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { backupDatabase, restoreDatabase, restorePostgres } from '../../core/db/backup.js';
import { describeTarget, type DatabaseTarget } from '../../core/db/url.js';
import { dataPaths } from '../../core/datadir.js';
import { dataDirOf, probeTarget, targetOf, withDataDirLock, withDatabase } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';
import type { Database_ } from '../../core/db/connection.js';
import { primaryOrganization } from '../../core/settings/organization.js';
import { backupStamp, manualBackupName } from '../../core/backups/names.js';

/** The lab's local time with its offset (lims-2026-11-25-12-19-05+0530.db), UTC before a lab exists. */
async function stamp(database: Database_): Promise<string> {
  return backupStamp((await primaryOrganization(database.db))?.timezone);
}

export function registerBackup(program: Command, out: Output): void {
  program
    .command('backup')
    .description('a consistent copy of the database, safe while the server runs')
    .option(
      '-o, --out <file>',
      'backup file to write (default: <data dir>/backups/lims-<lab time and offset>.db, or .dump on PostgreSQL)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ lims backup
  $ lims backup --out /mnt/usb/lims-$(date +%F).db

On SQLite the copy is made with SQLite's online backup and checked before the command ends.
On PostgreSQL it is pg_dump's custom format (pg_dump and pg_restore must be on the PATH);
replication and point-in-time recovery belong to the database's operators (docs/deployment.md).
Keep backups off this machine. Restore one with "lims restore FILE" (server stopped).`,
    )
    .action((flags: { out?: string }, cmd: Command) =>
      withDatabase(cmd, async (database, dir) => {
        const { backupsDir } = dataPaths(dir);
        const ext = database.engine === 'postgres' ? 'dump' : 'db';
        const file = resolve(flags.out ?? join(backupsDir, manualBackupName(await stamp(database), ext)));
        if (!flags.out)
          await import('node:fs').then((fs) => fs.mkdirSync(backupsDir, { recursive: true, mode: 0o700 }));
        try {
          const r = await backupDatabase(database, file);
          out.line(
            `backup written to ${r.file} (${formatBytes(r.bytes)}, ${r.patients.toLocaleString('en-IN')} patients, schema ${r.schema_version}); integrity ok`,
          );
        } catch (err) {
          throw new CliError(`${flags.out ? '--out: ' : ''}${(err as Error).message}`, 1, { cause: err });
        }
      }),
    );

  program
    .command('restore')
    .description('replace the database with a backup (SQLite: the current one is kept beside it)')
    .argument('<file>', 'a backup made by lims backup')
    .addHelpText(
      'after',
      `
Examples:
  $ lims restore ~/.lims/backups/lims-2026-11-25-02-00-00.db
  $ lims restore lims-2026-11-25.dump --database-url postgres://lims@db.clinic.lan/lims_restored

SQLite: with lims serve stopped; the replaced database is kept as lims.db.before-restore-<time>.
PostgreSQL: pg_restore into an empty database only (create one with createdb), in one transaction.`,
    )
    .action(async (file: string, _flags: unknown, cmd: Command) => {
      const dir = dataDirOf(cmd);
      const source = resolve(file);
      if (!existsSync(source)) throw new CliError(`no such backup file: ${source}`);
      const target = targetOf(cmd, dir);
      // Held while the database is replaced: no server, copy or import may have the old one open.
      await withDataDirLock(dir, 'lims restore', () => restoreInto(target, dir, source, out));
    });
}

async function restoreInto(target: DatabaseTarget, dir: string, source: string, out: Output): Promise<void> {
  if (target.kind === 'postgres') {
    const probe = await probeTarget(target);
    if (probe.state !== 'empty') {
      throw new CliError(
        `${describeTarget(target)} is not empty: restore into a new, empty database (createdb), then point lims at it with --database-url`,
      );
    }
    try {
      await restorePostgres(source, target);
    } catch (err) {
      throw new CliError((err as Error).message, 1, { cause: err });
    }
    out.line(`restored ${source} into ${describeTarget(target)}`);
    return;
  }
  const { dbFile } = dataPaths(dir, { create: true });
  let previous: string | null;
  try {
    ({ previous } = restoreDatabase(source, dbFile));
  } catch (err) {
    throw new CliError((err as Error).message, 1, { cause: err });
  }
  out.line(`restored ${source} into ${dbFile}`);
  if (previous) out.line(`the database it replaced is kept as ${previous}`);
}
