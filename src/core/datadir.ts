import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** --data-dir, else $LIMS_DATA_DIR, else ~/.lims */
export function resolveDataDir(flag?: string | undefined): string {
  const dir = flag ?? process.env.LIMS_DATA_DIR ?? join(homedir(), '.lims');
  return resolve(dir);
}

export interface DataPaths {
  dir: string;
  dbFile: string;
  backupsDir: string;
  /** Error reports of imports: one CSV per failed import job. */
  importReportsDir: string;
}

export function dataPaths(dir: string, opts: { create?: boolean } = {}): DataPaths {
  if (opts.create && !existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The data dir holds the database, backups and exports: this user's only, also one made before.
  else if (opts.create && (statSync(dir).mode & 0o077) !== 0 && statSync(dir).uid === process.getuid?.())
    chmodSync(dir, 0o700);
  return {
    dir,
    dbFile: join(dir, 'lims.db'),
    backupsDir: join(dir, 'backups'),
    importReportsDir: join(dir, 'import-reports'),
  };
}

/** What the data dir's config.json may hold: settings local to this server. */
export interface DataDirConfig {
  /** The lab's database when it is not the data dir's lims.db (lims setup --database-url stores it). */
  database_url?: string;
}

function configFile(dir: string): string {
  return join(dir, 'config.json');
}

/** The data dir's config; empty when there is none. A config that is not JSON is an error naming the file. */
export function readDataDirConfig(dir: string): DataDirConfig {
  const file = configFile(dir);
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} must hold a JSON object`);
  }
  const url = (parsed as Record<string, unknown>).database_url;
  return typeof url === 'string' ? { database_url: url } : {};
}

/** Writes the config readable by this user only (a database URL may carry a password). */
export function writeDataDirConfig(dir: string, config: DataDirConfig): void {
  dataPaths(dir, { create: true });
  const file = configFile(dir);
  const tmp = `${file}.partial`;
  writeFileSync(tmp, `${JSON.stringify({ ...readDataDirConfig(dir), ...config }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
