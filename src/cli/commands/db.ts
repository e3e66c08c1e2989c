import type { Command } from 'commander';
import type { CopyProgress } from '../../core/db/copy.js';
import { databaseTarget, DatabaseUrlError, describeTarget, type DatabaseTarget } from '../../core/db/url.js';
import { chosenDatabase, dataDirOf, openTarget, withDataDirLock } from '../context.js';
import { writeDataDirConfig } from '../../core/datadir.js';
import { CliError, UsageError } from '../errors.js';
import type { Output } from '../output.js';

interface CopyFlags {
  to?: string;
  from?: string;
  use?: boolean;
}

export function registerDb(program: Command, out: Output, stdout: NodeJS.WritableStream & { isTTY?: boolean }): void {
  const db = program.command('db').description('the lab database itself: copy a lab between SQLite and PostgreSQL');
  db.command('copy')
    .description('copy every table of the lab into an empty database (SQLite to PostgreSQL or back), ids kept')
    .option('--to <url>', "the empty database to copy into (default: this data dir's database)")
    .option('--from <url>', "the database to copy from (default: this data dir's database)")
    .option('--use', "afterwards, store the --to URL in the data dir's config: lims serve then runs on the copy")
    .addHelpText(
      'after',
      `
Examples:
  $ lims db copy --to postgres://lims@db.clinic.lan:5432/lims
  $ lims db copy --from postgres://lims@db.clinic.lan/lims --to sqlite:/var/backups/lims-copy.db

The source is read as one consistent snapshot; the copy refuses while lims serve runs on this
data dir (servers of other data dirs on the same database wait for it: copy at a quiet hour).
The target must be empty and is written in one transaction, so a
failed copy leaves nothing behind. The audit chain is verified on the target at the end.`,
    )
    .action((flags: CopyFlags, cmd: Command) => runCopy(cmd, flags, out, stdout));
}

function parseUrl(flag: '--to' | '--from', url: string): DatabaseTarget {
  try {
    return databaseTarget(url, {}, '', undefined, process.env);
  } catch (err) {
    if (err instanceof DatabaseUrlError) throw new UsageError(`${flag} ${url}: ${err.message}`);
    throw err;
  }
}

function same(a: DatabaseTarget, b: DatabaseTarget): boolean {
  if (a.kind === 'sqlite') return b.kind === 'sqlite' && a.file === b.file;
  return b.kind === 'postgres' && a.host === b.host && a.port === b.port && a.database === b.database;
}

async function runCopy(
  cmd: Command,
  flags: CopyFlags,
  out: Output,
  stdout: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<void> {
  if (!flags.to && !flags.from)
    throw new UsageError('say where to copy: --to URL (or --from URL), see lims db copy --help');
  const dir = dataDirOf(cmd);
  const here = chosenDatabase(cmd, dir).target;
  const from = flags.from ? parseUrl('--from', flags.from) : here;
  const to = flags.to ? parseUrl('--to', flags.to) : here;
  if (same(from, to)) throw new UsageError(`--from and --to are the same database (${describeTarget(to)})`);

  // No server writes to the source while it is read, and none runs on the data dir --use repoints.
  await withDataDirLock(dir, 'lims db copy', () => copy(dir, from, to, flags, out, stdout));
}

async function copy(
  dir: string,
  from: DatabaseTarget,
  to: DatabaseTarget,
  flags: CopyFlags,
  out: Output,
  stdout: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<void> {
  const { copyDatabase, CopyRefused } = await import('../../core/db/copy.js');
  const { verifyChain } = await import('../../core/audit/audit.js');
  const source = await openTarget(from);
  try {
    const target = await openTarget(to);
    try {
      const tty = stdout.isTTY === true;
      let shown = '';
      const progress = (p: CopyProgress) => {
        if (!tty) return;
        const line = `copying ${p.table}: ${p.copied.toLocaleString('en-IN')} of ${p.total.toLocaleString('en-IN')} rows`;
        stdout.write(`\r${line.padEnd(shown.length)}`);
        shown = line;
      };
      let report;
      try {
        report = await copyDatabase(source, target, progress);
      } catch (err) {
        if (err instanceof CopyRefused) throw new CliError(`${describeTarget(to)}: ${err.message}`);
        throw err;
      } finally {
        if (tty && shown) stdout.write(`\r${' '.repeat(shown.length)}\r`);
      }
      out.line(`copied ${describeTarget(from)} into ${describeTarget(to)}:`);
      out.fields(report.tables.map((t) => [t.name, `${t.rows.toLocaleString('en-IN')} rows`] as const));
      out.line(`rebuilt on the target: ${report.rebuilt.join(', ')}`);
      const chain = await verifyChain(target.db);
      if (!chain.ok) {
        throw new CliError(
          `the audit chain does not verify on the target (row ${chain.firstBrokenId}: ${chain.reason})`,
        );
      }
      out.line(`audit chain verified on the target: ${chain.checked.toLocaleString('en-IN')} rows`);
      if (flags.use && flags.to) {
        writeDataDirConfig(dir, { database_url: flags.to });
        out.line(`${dir}/config.json now names the copy: lims serve and every command on this data dir use it`);
      } else if (flags.to) {
        out.line(
          `To run the lab on the copy: lims serve --database-url URL (the --to URL), or copy with --use to store it in ${dir}/config.json`,
        );
      }
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
