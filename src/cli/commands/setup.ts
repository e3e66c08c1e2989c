import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { dataPaths } from '../../core/datadir.js';
import { DomainError } from '../../core/errors.js';
import type { SetupResult } from '../../core/setup/service.js';
import type { StarterSummary } from '../../core/catalogue/starter.js';
import { primaryOrganization } from '../../core/settings/organization.js';
import { CURRENCIES, DATE_FORMATS, TIMEZONES } from '../../shared/constants.js';
import { ROLE_LABELS } from '../../shared/roles.js';
import { setupSchema, type SetupInput } from '../../shared/schemas/setup.js';
import { chosenDatabase, dataDirGiven, dataDirOf, openDb, openTarget, probeTarget } from '../context.js';
import { writeDataDirConfig } from '../../core/datadir.js';
import { describeTarget, redactDatabaseUrl, type DatabaseTarget } from '../../core/db/url.js';
import { CliError, UsageError } from '../errors.js';
import { isInteractive, parseFlags, validatorFor } from '../flags.js';
import { shellQuote, type Output } from '../output.js';
import { askNewPassword } from '../prompts.js';
import { limsCommand } from '../invocation.js';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_RULE_TEXT } from '../../shared/password-policy.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './serve.js';

const DEFAULT_ADMIN_NAME = 'Lab Administrator';

interface SetupFlags {
  yes?: boolean;
  labName?: string;
  labAddress?: string;
  labPhone?: string;
  labEmail?: string;
  adminName?: string;
  adminEmail?: string;
  adminPassword?: string;
  timezone?: (typeof TIMEZONES)[number];
  currency?: (typeof CURRENCIES)[number];
  dateFormat?: (typeof DATE_FORMATS)[number];
  sampleData?: boolean;
}

const FLAG_OF: Readonly<Record<keyof SetupInput, string>> = {
  labName: '--lab-name',
  labAddress: '--lab-address',
  labPhone: '--lab-phone',
  labEmail: '--lab-email',
  adminName: '--admin-name',
  adminEmail: '--admin-email',
  adminPassword: '--admin-password',
  confirmPassword: '--admin-password',
  timezone: '--timezone',
  currency: '--currency',
  dateFormat: '--date-format',
  importSampleTests: '--sample-data',
  importSampleProfiles: '--sample-data',
  importSamplePackages: '--sample-data',
  database: '--database-url',
};
const SECRET = new Set(['adminPassword', 'confirmPassword']);
const REQUIRED = ['labName', 'adminEmail', 'adminPassword'] as const;

export function registerSetup(program: Command, out: Output): void {
  program
    .command('setup')
    .description('set up a new lab and its first administrator (asks questions unless --yes)')
    .option('-y, --yes', 'ask nothing: take every answer from the flags')
    .option('--lab-name <name>', 'the lab name, as printed on bills and reports')
    .option('--lab-address <address>', 'the lab address')
    .option('--lab-phone <phone>', 'the lab phone number')
    .option('--lab-email <email>', 'the lab email address')
    .option('--admin-name <name>', `the administrator's full name (default "${DEFAULT_ADMIN_NAME}")`)
    .option('--admin-email <email>', 'the administrator email, used to sign in')
    .option(
      '--admin-password <password>',
      `the administrator password: ${PASSWORD_RULE_TEXT[DEFAULT_PASSWORD_POLICY]} (or set $LIMS_ADMIN_PASSWORD)`,
    )
    .addOption(new Option('--timezone <zone>', 'the lab timezone (default Asia/Kolkata)').choices(TIMEZONES))
    .addOption(new Option('--currency <code>', 'the billing currency (default INR)').choices(CURRENCIES))
    .addOption(new Option('--date-format <format>', 'how dates are shown (default DD/MM/YYYY)').choices(DATE_FORMATS))
    .option('--sample-data', 'load the starter catalogue of tests, profiles and packages')
    .addHelpText(
      'after',
      `
Examples:
  $ lims setup
  $ lims setup --yes --lab-name "City Diagnostics" --admin-email admin@citylab.in --admin-password 'city-lab-2026'
  $ lims --database-url postgres://lims@db.clinic.lan/lims setup

On PostgreSQL (--database-url or $LIMS_DATABASE_URL) the lab is set up in that database, which must
be empty; the URL is stored in the data dir's config.json (readable by this user only), so later
commands and lims serve need no flag. Setting up never changes a data dir or database that already
holds a lab.`,
    )
    .action((flags: SetupFlags, cmd: Command) => runSetup(cmd, flags, out));
}

async function runSetup(cmd: Command, flags: SetupFlags, out: Output): Promise<void> {
  const dir = dataDirOf(cmd);
  const chosen = chosenDatabase(cmd, dir);
  await refuseIfSetUp(chosen.target, dir);

  let raw: Record<string, unknown>;
  if (flags.yes) {
    raw = fromFlags(flags);
  } else if (isInteractive()) {
    raw = await wizard(flags, dir, out);
  } else {
    throw new UsageError(
      'no terminal to ask the setup questions on; to set up without questions pass ' +
        '--yes --lab-name NAME --admin-email EMAIL --admin-password PASSWORD (see lims setup --help)',
    );
  }
  const setup = parseFlags(setupSchema, raw, FLAG_OF, SECRET);

  const database =
    chosen.target.kind === 'sqlite' ? openDb(dataPaths(dir, { create: true }).dbFile) : await openTarget(chosen.target);
  let result: SetupResult;
  try {
    const { setupLab } = await import('../../core/setup/service.js');
    result = await setupLab(database.db, setup);
  } catch (err) {
    // Someone else set the lab up between our check and now: setupLab refused inside its transaction.
    if (err instanceof DomainError && err.code === 'ALREADY_SET_UP') {
      const org = await primaryOrganization(database.db);
      throw new CliError(alreadySetUp(org?.name ?? 'unknown', where(chosen.target, dir)));
    }
    throw err;
  } finally {
    await database.close();
  }
  // The data dir remembers a PostgreSQL URL given on the command line, so `lims serve` needs no flag.
  if (chosen.target.kind === 'postgres' && chosen.url && chosen.source !== 'config') {
    writeDataDirConfig(dir, { database_url: chosen.url });
    out.line(
      `The database URL is stored in ${dir}/config.json (readable by this user only): ${redactDatabaseUrl(chosen.url)}`,
    );
  }
  printNextSteps(out, setup, dir, dataDirGiven(cmd), result.catalogue, chosen.target);
}

function where(target: DatabaseTarget, dir: string): string {
  return target.kind === 'sqlite' ? `data dir: ${dir}` : describeTarget(target);
}

function alreadySetUp(name: string, place: string): string {
  return place.startsWith('data dir')
    ? `this data dir already holds a lab (${name}); nothing was changed (${place})`
    : `this database already holds a lab (${name}); nothing was changed (${place})`;
}

/** Checked before any question is asked, and without creating a database where there is none. */
async function refuseIfSetUp(target: DatabaseTarget, dir: string): Promise<void> {
  if (target.kind === 'postgres') {
    const probe = await probeTarget(target);
    if (probe.state === 'other') {
      throw new CliError(
        `${describeTarget(target)} is not empty (it holds ${probe.tables.join(', ')}...): lims sets up a lab only on an empty database; create one for it (createdb lims)`,
      );
    }
    if (probe.state === 'lims' && probe.labName !== null) {
      throw new CliError(alreadySetUp(probe.labName, describeTarget(target)));
    }
    return;
  }
  const dbFile = target.file;
  if (!existsSync(dbFile)) return;
  const database = openDb(dbFile);
  try {
    const org = await primaryOrganization(database.db);
    if (org) throw new CliError(alreadySetUp(org.name, `data dir: ${dir}`));
  } finally {
    await database.close();
  }
}

function fromFlagsLoose(flags: SetupFlags): Record<string, unknown> {
  return {
    labName: flags.labName,
    labAddress: flags.labAddress,
    labPhone: flags.labPhone,
    labEmail: flags.labEmail,
    adminName: flags.adminName,
    adminEmail: flags.adminEmail,
    adminPassword: flags.adminPassword,
  };
}

function fromFlags(flags: SetupFlags): Record<string, unknown> {
  const raw = {
    labName: flags.labName,
    labAddress: flags.labAddress,
    labPhone: flags.labPhone,
    labEmail: flags.labEmail,
    adminName: flags.adminName ?? DEFAULT_ADMIN_NAME,
    adminEmail: flags.adminEmail,
    // The environment keeps the password out of `ps` listings and shell history.
    adminPassword: flags.adminPassword ?? process.env.LIMS_ADMIN_PASSWORD,
    timezone: flags.timezone,
    currency: flags.currency,
    dateFormat: flags.dateFormat,
    ...starterFlags(flags.sampleData ?? false),
  };
  const missing = REQUIRED.filter((k) => raw[k] === undefined).map((k) => FLAG_OF[k]);
  if (missing.length > 0) {
    throw new UsageError(
      `missing ${missing.join(', ')}: lims setup --yes needs --lab-name, --admin-email and --admin-password`,
    );
  }
  return raw;
}

/** Asks for every answer the flags did not give; nothing is written until the last confirmation. */
async function wizard(flags: SetupFlags, dir: string, out: Output): Promise<Record<string, unknown>> {
  const shape = setupSchema.shape;
  // Flags given alongside the questions are checked first: nobody answers ten prompts to then fail on a flag.
  parseFlags(z.object(shape).partial(), fromFlagsLoose(flags), FLAG_OF, SECRET);
  const { confirm, input, select } = await import('@inquirer/prompts');
  out.line(`Setting up a new lab in ${dir}.`);
  out.line('Nothing is saved until you confirm at the end; press Ctrl+C to stop.');
  out.line();
  const labName =
    flags.labName ?? (await input({ message: 'Lab name', required: true, validate: validatorFor(shape.labName) }));
  const labAddress =
    flags.labAddress ?? (await input({ message: 'Lab address (optional)', validate: validatorFor(shape.labAddress) }));
  const labPhone =
    flags.labPhone ?? (await input({ message: 'Lab phone (optional)', validate: validatorFor(shape.labPhone) }));
  const labEmail =
    flags.labEmail ?? (await input({ message: 'Lab email (optional)', validate: validatorFor(shape.labEmail) }));
  const adminName =
    flags.adminName ??
    (await input({
      message: 'Administrator name',
      default: DEFAULT_ADMIN_NAME,
      validate: validatorFor(shape.adminName),
    }));
  const adminEmail =
    flags.adminEmail ??
    (await input({ message: 'Administrator email (used to sign in)', validate: validatorFor(shape.adminEmail) }));
  const adminPassword =
    flags.adminPassword ?? (await askNewPassword(out, 'Administrator password', DEFAULT_PASSWORD_POLICY));
  const timezone =
    flags.timezone ?? (await select({ message: 'Timezone', choices: TIMEZONES, default: 'Asia/Kolkata' }));
  const currency = flags.currency ?? (await select({ message: 'Currency', choices: CURRENCIES, default: 'INR' }));
  const dateFormat =
    flags.dateFormat ?? (await select({ message: 'Date format', choices: DATE_FORMATS, default: 'DD/MM/YYYY' }));
  const sampleData =
    flags.sampleData ??
    (await confirm({ message: 'Load the starter catalogue of common tests, profiles and packages?', default: true }));
  out.line();
  out.line('The lab will be set up as:');
  out.fields([
    ['Lab', labName],
    ['Address', labAddress || '-'],
    ['Phone', labPhone || '-'],
    ['Email', labEmail || '-'],
    ['Administrator', `${adminName} <${adminEmail}>`],
    ['Timezone', timezone],
    ['Currency', currency],
    ['Date format', dateFormat],
    ['Starter catalogue', sampleData ? 'yes' : 'no'],
  ]);
  if (!(await confirm({ message: 'Create the lab now?', default: true }))) {
    throw new CliError('setup cancelled; nothing was changed');
  }
  return {
    labName,
    labAddress,
    labPhone,
    labEmail,
    adminName,
    adminEmail,
    adminPassword,
    timezone,
    currency,
    dateFormat,
    ...starterFlags(sampleData),
  };
}

/** --sample-data turns on all three of the wizard's import switches. */
function starterFlags(on: boolean) {
  return { importSampleTests: on, importSampleProfiles: on, importSamplePackages: on };
}

function printNextSteps(
  out: Output,
  setup: SetupInput,
  dir: string,
  showDir: boolean,
  catalogue: StarterSummary | null,
  target: DatabaseTarget,
): void {
  const dirFlag = showDir ? ` --data-dir ${shellQuote(dir)}` : '';
  const lims = limsCommand();
  out.line(`Lab "${setup.labName}" is set up.`);
  out.fields([
    ['Data dir', dir],
    ['Database', describeTarget(target)],
    ['Administrator', `${setup.adminName} <${setup.adminEmail}> (${ROLE_LABELS.superadmin})`],
    ['Timezone', setup.timezone],
    ['Currency', setup.currency],
    ['Date format', setup.dateFormat],
  ]);
  if (catalogue) {
    out.line(
      `Starter catalogue: ${catalogue.tests} tests, ${catalogue.profiles} profiles, ${catalogue.packages} packages loaded; ` +
        'the prices are illustrative, set your own under Test Pricing.',
    );
  }
  out.line();
  out.line('Next steps:');
  out.line(`  1. Start the server:     ${lims} serve${dirFlag}`);
  out.line(`  2. Open http://${DEFAULT_HOST}:${DEFAULT_PORT} in a browser and sign in as ${setup.adminEmail}`);
  out.line(`  3. Add staff accounts:   ${lims} user add${dirFlag}   (or User Management in the browser)`);
  out.line(
    `  For other PCs on the clinic network: ${lims} serve${dirFlag} --host 0.0.0.0, then open http://<this PC's address>:${DEFAULT_PORT}`,
  );
}
