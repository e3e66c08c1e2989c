import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { openDatabase, openDatabaseAt, type Database_ } from '../core/db/connection.js';
import { dataPaths, readDataDirConfig, resolveDataDir } from '../core/datadir.js';
import { databaseTarget, DatabaseUrlError, describeTarget, type DatabaseTarget } from '../core/db/url.js';
import { explainPostgresError, probePostgres, type PostgresState } from '../core/db/postgres-connect.js';
import { systemActor, type Actor } from '../core/context.js';
import { primaryOrganization, type OrganizationRow } from '../core/settings/organization.js';
import { DataDirBusy, lockDataDir } from '../core/datadir-lock.js';
import { CliError } from './errors.js';

export interface GlobalOptions {
  dataDir?: string;
  databaseUrl?: string;
  verbose?: boolean;
}

/** --data-dir (given before or after the command name), else $LIMS_DATA_DIR, else ~/.lims. */
export function dataDirOf(cmd: Command): string {
  return resolveDataDir(cmd.optsWithGlobals<GlobalOptions>().dataDir);
}

/** True when --data-dir was typed: next-step hints then repeat it so they work as printed. */
export function dataDirGiven(cmd: Command): boolean {
  return cmd.optsWithGlobals<GlobalOptions>().dataDir !== undefined;
}

export function noLabMessage(dir: string): string {
  return `this data dir has no lab yet; run lims setup first (data dir: ${dir})`;
}

/** Opens (creating if needed) the database, turning SQLite's errors into a sentence naming the file. */
export function openDb(file: string): Database_ {
  try {
    return openDatabase(file);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new CliError(`cannot open the database ${file}: ${reason}`, 1, { cause: err });
  }
}

/**
 * The database a command uses: --database-url, else $LIMS_DATABASE_URL, else the URL stored in the
 * data dir's config (by lims setup --database-url), else the data dir's lims.db.
 */
export function targetOf(cmd: Command, dir = dataDirOf(cmd)): DatabaseTarget {
  return chosenDatabase(cmd, dir).target;
}

/** The target and the URL it came from (undefined: the data dir's own lims.db). */
export function chosenDatabase(
  cmd: Command,
  dir = dataDirOf(cmd),
): { target: DatabaseTarget; url: string | undefined; source: 'flag' | 'env' | 'config' | 'data dir' } {
  const flag = cmd.optsWithGlobals<GlobalOptions>().databaseUrl?.trim();
  const env = process.env.LIMS_DATABASE_URL?.trim();
  let stored: string | undefined;
  try {
    stored = readDataDirConfig(dir).database_url?.trim();
  } catch (err) {
    throw new CliError((err as Error).message, 1, { cause: err });
  }
  const url = flag || env || stored || undefined;
  const source = flag ? 'flag' : env ? 'env' : stored ? 'config' : 'data dir';
  const name = { flag: '--database-url', env: '$LIMS_DATABASE_URL', config: `${dir}/config.json` }[
    source === 'data dir' ? 'flag' : source
  ];
  try {
    return { target: databaseTarget(url, {}, dataPaths(dir).dbFile, undefined, process.env), url, source };
  } catch (err) {
    if (err instanceof DatabaseUrlError) throw new CliError(`${name}: ${err.message}`, 2, { cause: err });
    throw err;
  }
}

/** Opens a target (PostgreSQL: connects and migrates), turning failures into one sentence. */
export async function openTarget(target: DatabaseTarget): Promise<Database_> {
  if (target.kind === 'sqlite') return openDb(target.file);
  try {
    return await openDatabaseAt(target, { listen: false });
  } catch (err) {
    throw new CliError(`cannot open ${describeTarget(target)}: ${explainPostgresError(err, target)}`, 1, {
      cause: err,
    });
  }
}

/** What a PostgreSQL database holds (one short connection), a failure to connect as one sentence. */
export async function probeTarget(target: Extract<DatabaseTarget, { kind: 'postgres' }>): Promise<PostgresState> {
  try {
    return await probePostgres(target);
  } catch (err) {
    throw new CliError(`cannot open ${describeTarget(target)}: ${explainPostgresError(err, target)}`, 1, {
      cause: err,
    });
  }
}

/** Runs fn on the lab's existing database and always closes it. Never creates a SQLite file. */
export async function withDatabase<T>(cmd: Command, fn: (database: Database_, dir: string) => Promise<T>): Promise<T> {
  const dir = dataDirOf(cmd);
  const target = targetOf(cmd, dir);
  if (target.kind === 'sqlite' && !existsSync(target.file)) throw new CliError(noLabMessage(dir));
  const database = await openTarget(target);
  try {
    // A PostgreSQL database that holds no lab yet is "no lab" too (on SQLite: no lims.db file).
    if (target.kind === 'postgres' && !(await primaryOrganization(database.db))) {
      throw new CliError(noLabMessage(dir));
    }
    return await fn(database, dir);
  } finally {
    await database.close();
  }
}

export interface Lab {
  database: Database_;
  org: OrganizationRow;
  /** The CLI acts as the system on the lab's organisation; audit rows name it "cli". */
  actor: Actor;
  dir: string;
}

/** Like withDatabase, but requires a set-up lab and hands over the actor to act as. */
export function withLab<T>(cmd: Command, fn: (lab: Lab) => Promise<T>): Promise<T> {
  return withDatabase(cmd, async (database, dir) => {
    const org = await primaryOrganization(database.db);
    if (!org) throw new CliError(noLabMessage(dir));
    return fn({ database, org, actor: systemActor(org.id), dir });
  });
}

/**
 * Runs fn holding the data dir (docs/cli.md, "One process owns a data dir"): a running lims serve,
 * restore, copy or import refuses this command with one line naming that process.
 */
export async function withDataDirLock<T>(dir: string, command: string, fn: () => Promise<T>): Promise<T> {
  let lock;
  try {
    lock = lockDataDir(dataPaths(dir, { create: true }).dir, command);
  } catch (err) {
    if (err instanceof DataDirBusy) throw new CliError(err.message, 1, { cause: err });
    throw err;
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
