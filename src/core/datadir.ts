import { mkdirSync, existsSync } from 'node:fs';
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
}

export function dataPaths(dir: string, opts: { create?: boolean } = {}): DataPaths {
  if (opts.create && !existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { dir, dbFile: join(dir, 'lims.db'), backupsDir: join(dir, 'backups') };
}
