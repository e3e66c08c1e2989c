import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { openDatabase, type Database_ } from '../core/db/connection.js';
import { dataPaths, resolveDataDir } from '../core/datadir.js';
import { systemActor, type Actor } from '../core/context.js';
import { primaryOrganization, type OrganizationRow } from '../core/settings/organization.js';
import { CliError } from './errors.js';

export interface GlobalOptions {
  dataDir?: string;
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

/** Runs fn on the data dir's existing database and always closes it. Never creates a database. */
export async function withDatabase<T>(cmd: Command, fn: (database: Database_, dir: string) => Promise<T>): Promise<T> {
  const dir = dataDirOf(cmd);
  const { dbFile } = dataPaths(dir);
  if (!existsSync(dbFile)) throw new CliError(noLabMessage(dir));
  const database = openDb(dbFile);
  try {
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
