import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/core/db/connection.js';
import { setupLab } from '../src/core/setup/service.js';
import { primaryOrganization } from '../src/core/settings/organization.js';
import { writeAudit } from '../src/core/audit/audit.js';
import { systemActor } from '../src/core/context.js';
import { PATIENT_COLUMNS, PatientGenerator, type PatientValues } from './generate.js';

export const BENCH_EMAIL = 'bench.admin@lab.test';
export const BENCH_PASSWORD = 'bench-password-2024';

/** The benchmark lab as `lims setup` makes it: an empty catalogue, the bench's admin. */
export const BENCH_LAB = {
  labName: 'Benchmark Diagnostics',
  labAddress: '12, MG Road, Bengaluru',
  adminName: 'Bench Admin',
  adminEmail: BENCH_EMAIL,
  adminPassword: BENCH_PASSWORD,
  timezone: 'Asia/Kolkata',
  currency: 'INR',
  dateFormat: 'DD/MM/YYYY',
  importSampleTests: false,
  importSampleProfiles: false,
  importSamplePackages: false,
} satisfies Parameters<typeof setupLab>[1];

export interface Dataset {
  file: string;
  organizationId: number;
  patients: number;
  /** Lowest and highest patient id, for random look-ups. */
  minId: number;
  maxId: number;
  builtSeconds: number | null;
}

const BATCH = 50_000;
/** Registrations spread over about three years. */
const DAYS = 1100;

async function inspect(file: string): Promise<Omit<Dataset, 'builtSeconds'> | null> {
  const database = openDatabase(file);
  try {
    const org = await primaryOrganization(database.db);
    if (!org) return null;
    const user = await database.db.selectFrom('users').select('id').where('email', '=', BENCH_EMAIL).executeTakeFirst();
    const counter = await database.db
      .selectFrom('entity_counts')
      .select('n')
      .where('organization_id', '=', org.id)
      .where('entity', '=', 'patients')
      .executeTakeFirst();
    const range = await database.db
      .selectFrom('patients')
      .select((eb) => [eb.fn.min<number>('id').as('lo'), eb.fn.max<number>('id').as('hi')])
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    if (!user || !counter) return null;
    return { file, organizationId: org.id, patients: counter.n, minId: range.lo, maxId: range.hi };
  } finally {
    await database.close();
  }
}

export function removeDatabase(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/**
 * The lab database with `count` patients, built on first use and reused afterwards. Patients go
 * in through the patients table itself (so the search-index and counter triggers run exactly as
 * for a registration), in large transactions of one cached prepared statement.
 */
export async function ensureDataset(dir: string, count: number, log: (line: string) => void): Promise<Dataset> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `lims-bench-${count}.db`);
  if (existsSync(file)) {
    const found = await inspect(file).catch(() => null);
    if (found && found.patients === count) {
      log(`reusing ${file} (${found.patients.toLocaleString('en-IN')} patients)`);
      return { ...found, builtSeconds: null };
    }
    log(`rebuilding ${file}: it does not hold exactly ${count.toLocaleString('en-IN')} patients`);
    removeDatabase(file);
  }

  const started = performance.now();
  const database = openDatabase(file);
  const { organizationId, adminId } = await setupLab(database.db, BENCH_LAB);

  const sqlite = database.sqlite;
  // A throw-away benchmark database: durability during the load buys nothing; the pragmas the app
  // runs with (synchronous=FULL) are restored before anything is measured.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  const insert = sqlite.prepare(
    `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES (${PATIENT_COLUMNS.map(() => '?').join(', ')})`,
  );
  const gen = new PatientGenerator(organizationId, adminId, count, DAYS);
  const insertBatch = sqlite.transaction((rows: PatientValues[]) => {
    for (const r of rows) insert.run(r);
  });
  for (let doneRows = 0; doneRows < count;) {
    const size = Math.min(BATCH, count - doneRows);
    const rows: PatientValues[] = new Array<PatientValues>(size);
    for (let k = 0; k < size; k++) rows[k] = gen.row(doneRows + k);
    insertBatch(rows);
    doneRows += size;
    if (doneRows % 200_000 === 0 || doneRows === count) {
      log(`  ${doneRows.toLocaleString('en-IN')} patients (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }

  // New registrations continue each day's patient code sequence instead of colliding with it.
  const seq = sqlite.prepare(
    `INSERT INTO sequences (organization_id, name, value) VALUES (?, ?, ?)
     ON CONFLICT (organization_id, name) DO UPDATE SET value = max(value, excluded.value)`,
  );
  sqlite.transaction(() => {
    for (const [day, last] of gen.perDay) seq.run(organizationId, `patient:${day}`, last);
  })();
  await writeAudit(database.db, systemActor(organizationId, 'bench'), {
    action: 'import',
    entity: 'patient',
    newValues: { count, source: 'npm run bench (synthetic register)' },
  });
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.pragma('synchronous = FULL');
  await database.close();

  const found = await inspect(file);
  if (!found || found.patients !== count)
    throw new Error(`the benchmark database holds ${found?.patients ?? 0} patients, expected ${count}`);
  return { ...found, builtSeconds: (performance.now() - started) / 1000 };
}
