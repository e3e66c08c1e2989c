import { DataDirBusy } from '../../core/datadir-lock.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { labSettings, primaryOrganization, type LabSettings } from '../../core/settings/organization.js';
import { dataPaths } from '../../core/datadir.js';
import type { BackupFrequency } from '../../shared/constants.js';
import { describeTarget, type DatabaseTarget } from '../../core/db/url.js';
import { explainPostgresError, isPostgresConnectError } from '../../core/db/postgres-connect.js';
import { dataDirOf, openTarget, targetOf } from '../context.js';
import { CliError } from '../errors.js';
import { parseMegabytes, parsePort } from '../flags.js';
import {
  DEFAULT_UPLOAD_LIMIT_BYTES,
  DEFAULT_UPLOAD_QUOTA_BYTES,
  MAX_UPLOAD_BYTES,
} from '../../shared/api/data-jobs.js';

const MB = 1024 * 1024;
import type { Output } from '../output.js';
import { LOG_FORMATS } from '../../server/log-format.js';
import type { ServeOptions } from '../../server/server.js';

export const DEFAULT_PORT = 3001;
export const DEFAULT_HOST = '127.0.0.1';

/** The server's options as the command line gives them: the demo lab optional, the upload limits in MB. */
type ServeFlags = Pick<
  ServeOptions,
  | 'port'
  | 'host'
  | 'quiet'
  | 'logRequests'
  | 'logFormat'
  | 'trustProxy'
  | 'secureCookies'
  | 'allowedHosts'
  | 'dropRoot'
  | 'listenerHosts'
  | 'allowPrivateOutbound'
> & { demo?: boolean; uploadLimit?: number; uploadQuota?: number };

export function registerServe(program: Command, out: Output): void {
  program
    .command('serve')
    .description('run the web app and its API (on an empty data dir the browser opens the setup wizard)')
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (1-65535)').default(DEFAULT_PORT).argParser(parsePort),
    )
    .option('--host <host>', 'address to listen on; 0.0.0.0 serves every PC on the network', DEFAULT_HOST)
    .option('--demo', 'run a demo lab with one account per role, listed on the login page')
    .option('--quiet', 'no server log (errors); the start-up lines are still printed')
    .option('--log-requests', 'also log a line for every request (method, path, status, time)')
    .addOption(
      new Option(
        '--log-format <format>',
        'server log as readable lines (pretty) or JSON lines (json); default: pretty on a terminal, json when stdout is a pipe or file',
      ).choices(LOG_FORMATS),
    )
    .option(
      '--trust-proxy',
      'behind a reverse proxy (nginx, Caddy): use the client address and https it forwards; cookies become Secure over https',
    )
    .option('--secure-cookies', 'mark the sign-in cookies Secure (the browser reaches lims over https)')
    .addOption(
      new Option(
        '--allowed-hosts <names>',
        'comma-separated host names the server answers (e.g. lims.clinic.lan,192.168.1.20); others get 421',
      ).argParser(parseHosts),
    )
    .addOption(
      new Option(
        '--listener-hosts <addresses>',
        "comma-separated addresses besides --host that labs' analyzer listeners may bind (e.g. 192.168.10.5)",
      ).argParser(parseHosts),
    )
    .option(
      '--allow-private-outbound',
      "let labs' SMS gateways, mail servers, report receivers and dialled analyzers be any address, this PC's own and link-local ones included (off: see docs/security.md)",
    )
    .option(
      '--drop-root <dir>',
      "the folder under which labs' watched folders must lie, one per lab (default: <data dir>/drop)",
    )
    .addOption(
      new Option(
        '--upload-limit <MB>',
        `the largest file one import on the Data screens may send, in MB (at most ${MAX_UPLOAD_BYTES / MB}; larger: lims import)`,
      )
        .default(DEFAULT_UPLOAD_LIMIT_BYTES / MB)
        .argParser(parseMegabytes(MAX_UPLOAD_BYTES / MB)),
    )
    .addOption(
      new Option(
        '--upload-quota <MB>',
        "the most one lab's uploads waiting for their imports may hold on this server at once, in MB",
      )
        .default(DEFAULT_UPLOAD_QUOTA_BYTES / MB)
        .argParser(parseMegabytes(1024 * 1024)),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ lims serve
  $ lims serve --host 0.0.0.0 --port 8080
  $ lims serve --demo --data-dir /tmp/lims-demo
  $ lims serve --database-url postgres://lims@db.clinic.lan/lims --port 3002

Stop it with Ctrl+C (or SIGTERM): open requests finish and the database is closed cleanly.`,
    )
    .action((flags: ServeFlags, cmd: Command) => runServe(cmd, flags, out));
}

async function runServe(cmd: Command, flags: ServeFlags, out: Output): Promise<void> {
  const dir = dataDirOf(cmd);
  const target = targetOf(cmd, dir);
  const demo = flags.demo ?? false;
  const uploadLimit = flags.uploadLimit ?? DEFAULT_UPLOAD_LIMIT_BYTES / MB;
  const uploadQuota = flags.uploadQuota ?? DEFAULT_UPLOAD_QUOTA_BYTES / MB;
  if (uploadQuota < uploadLimit)
    throw new CliError(
      `--upload-quota (${uploadQuota} MB) is below --upload-limit (${uploadLimit} MB): a file of the limit could never be uploaded`,
      2,
    );
  // Loaded here, not at the top: the server and its plugins take half a second to import, and
  // every other command (setup, user, audit) should start at once.
  const { serve } = await import('../../server/server.js');
  let url: string;
  try {
    ({ url } = await serve({
      dataDir: dir,
      target,
      port: flags.port,
      host: flags.host,
      demo,
      quiet: flags.quiet ?? false,
      logRequests: flags.logRequests ?? false,
      logFormat: flags.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json'),
      trustProxy: flags.trustProxy ?? false,
      secureCookies: flags.secureCookies ?? false,
      allowedHosts: flags.allowedHosts,
      dropRoot: flags.dropRoot,
      listenerHosts: flags.listenerHosts,
      allowPrivateOutbound: flags.allowPrivateOutbound ?? false,
      uploadLimits: { maxFileBytes: uploadLimit * MB, labQuotaBytes: uploadQuota * MB },
    }));
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof DataDirBusy) throw new CliError(err.message, 1, { cause: err });
    if (target.kind === 'postgres' && isPostgresConnectError(err)) {
      throw new CliError(`cannot open ${describeTarget(target)}: ${explainPostgresError(err, target)}`, 1, {
        cause: err,
      });
    }
    throw listenError(err, flags.host, flags.port);
  }
  const lab = demo ? null : await labBackups(target);
  const needsSetup = !demo && lab === null;
  out.line(`lims is running at ${url}`);
  if (lab) out.line(backupBanner(lab, dataPaths(dir).backupsDir));
  if (demo) {
    out.line('Demo mode: the demo accounts and their password are listed on the login page.');
  } else if (needsSetup) {
    out.line(
      `No lab is set up in ${target.kind === 'sqlite' ? dir : describeTarget(target)} yet: open ${url}/setup-wizard to create one.`,
    );
  }
  out.line('Press Ctrl+C to stop.');
}

/**
 * The backup settings of the server's lab (its first, on a server of several: the schedule is
 * theirs), null when no lab is set up. A second, short-lived connection: the server holds its own,
 * and WAL lets both read.
 */
async function labBackups(target: DatabaseTarget): Promise<BackupSettings | null> {
  const database = await openTarget(target);
  try {
    const org = await primaryOrganization(database.db);
    return org ? await labSettings(database.db, org.id) : null;
  } finally {
    await database.close();
  }
}

type BackupSettings = Pick<LabSettings, 'autoBackup' | 'backupFrequency' | 'backupRetention'>;

const EVERY: Record<BackupFrequency, string> = {
  hourly: 'every hour',
  daily: 'every day',
  weekly: 'every week',
  monthly: 'every 30 days',
};

/** The start banner's word on backups: when, where and for how long, or that they are off. */
export function backupBanner(s: BackupSettings, backupsDir: string): string {
  if (!s.autoBackup) return 'Automatic backups are off (System Settings, Database); take one with "lims backup".';
  return `Automatic backups: ${EVERY[s.backupFrequency]} while the server runs, into ${backupsDir}, each kept ${s.backupRetention} days (System Settings, Database). Copy them off this PC.`;
}

/** Turns the socket errors people actually meet into one sentence naming the port or host. */
function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return new CliError(
        `port ${port} on ${host} is already in use; stop the program using it or choose another with --port`,
      );
    case 'EACCES':
      return new CliError(
        `not allowed to listen on port ${port}; ports below 1024 need extra rights, choose another with --port`,
      );
    case 'EADDRNOTAVAIL':
      return new CliError(
        `--host ${host}: this computer has no such address; use 127.0.0.1, 0.0.0.0 or one of its own addresses`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`--host ${host}: no such host name`);
    default:
      return err;
  }
}

/** `--allowed-hosts a,b:3001`: host names or host:port, no scheme or path. */
export function parseHosts(value: string): string[] {
  const names = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = names.find((h) => !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+|[0-9a-f:]+)(:\d{1,5})?$/.test(h));
  if (names.length === 0 || bad !== undefined) {
    throw new InvalidArgumentError(
      `"${bad ?? value}" is not a host name; give names such as lims.clinic.lan or 192.168.1.20, separated by commas`,
    );
  }
  return names;
}
