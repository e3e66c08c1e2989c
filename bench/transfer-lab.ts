import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, openDatabaseAt, type Database_ } from '../src/core/db/connection.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';
import { setupLab } from '../src/core/setup/service.js';

/** The lab the import and export benches work on: set up fresh, opened on either engine. */

export const SEED = 20261126;
export const DAYS = 1100;
export const ADMIN = { email: 'transfer.admin@lab.test', password: 'bench-password-2024' };

/** A freshly set-up lab (SQLite in `dataDir`, or the PostgreSQL database `url`), closed again. */
export async function freshLab(target: {
  dataDir: string;
  url?: string;
}): Promise<{ organizationId: number; adminId: number }> {
  rmSync(target.dataDir, { recursive: true, force: true });
  mkdirSync(target.dataDir, { recursive: true });
  const database = await openLab(target);
  try {
    return await setupLab(database.db, {
      labName: 'Transfer Bench Diagnostics',
      labAddress: '12, MG Road, Bengaluru',
      adminName: 'Bench Admin',
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      importSampleTests: false,
      importSampleProfiles: false,
      importSamplePackages: false,
    });
  } finally {
    await database.close();
  }
}

export function openLab(target: { dataDir: string; url?: string }): Promise<Database_> | Database_ {
  return target.url
    ? openDatabaseAt(parseDatabaseUrl(target.url), { listen: false })
    : openDatabase(join(target.dataDir, 'lims.db'));
}
