import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { entityNamed, runImport, type AnyEntity, type ImportResult } from '../../src/core/transfer/service.js';
import { patientBody } from './support.js';

/**
 * An import reads and checks its whole file before it takes the write lock, and then only writes:
 * another person's change made while a file is being checked is stored at once (it does not wait
 * for the import, nor fail after waiting), and a key that change took is found again when the
 * import stores, which then stores nothing and names the row.
 */

let lab: TestLab;
let actor: Actor;
let dir: string;
const ROWS = 2_500;
const code = (i: number) => `PAT20261101${String(i + 1).padStart(4, '0')}`;

beforeAll(async () => {
  lab = await makeLab();
  actor = systemActor(lab.organizationId);
  dir = tempDir('lims-import-passes-');
});
afterAll(() => lab.close());

/** A name may not hold digits: the row's number in letters (0 -> a, 27 -> bb). */
const letters = (i: number) => [...String(i)].map((d) => String.fromCharCode(97 + Number(d))).join('');

function patientsFile(name: string, first: number, rows: number): string {
  const lines = ['patient_id,first_name,last_name,gender,date_of_birth'];
  for (let i = first; i < first + rows; i++) lines.push(`${code(i)},Pass${letters(i)},Kumar,Female,1980-02-03`);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** The patients entity, with `during` run (and awaited) while its second batch is checked. */
function patientsWith(during: () => Promise<void>): AnyEntity {
  const base = entityNamed('patients')!;
  let batches = 0;
  return {
    ...base,
    async plan(ctx, rows) {
      const planned = await base.plan(ctx, rows);
      batches += 1;
      // Past the first batch: an import writing as it read would hold the write lock by now.
      if (batches === 2) await within(during(), 'the change made while the file was checked');
      return planned;
    },
  };
}

/** A change that waits for the import would never end (the import waits for it here): name it. */
function within<T>(work: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} waited for the import's write lock`)), 15_000),
    ),
  ]);
}

function importPatients(entity: AnyEntity, path: string): Promise<ImportResult> {
  return runImport(lab.database.db, actor, {
    entity,
    path,
    dryRun: false,
    update: false,
    origin: 'cli',
    reportPath: () => null,
    spoolDir: join(dir, 'spool'),
  });
}

async function storedCodes(codes: string[]): Promise<string[]> {
  const rows = await lab.database.db
    .selectFrom('patients')
    .select('patient_code')
    .where('organization_id', '=', lab.organizationId)
    .where('patient_code', 'in', codes)
    .execute();
  return rows.map((r) => r.patient_code);
}

describe('an import checks its file before it takes the write lock', () => {
  it('lets the front desk register a patient while a file is checked, then stores the whole file', async () => {
    let registered = 0;
    const entity = patientsWith(async () => {
      const res = await lab.admin.post('/api/patients', { ...patientBody(), confirm_new: true });
      registered = res.statusCode;
    });
    const result = await importPatients(entity, patientsFile('clean.csv', 0, ROWS));
    expect(registered).toBe(201);
    expect(result).toMatchObject({ status: 'completed', inserted: ROWS, errors: 0 });
    expect(await storedCodes([code(0), code(ROWS - 1)])).toHaveLength(2);
    // The planned rows waited in the data dir's spool and are gone with the import.
    expect(readdirSync(join(dir, 'spool'))).toEqual([]);
  });

  it('stores nothing of a file whose key someone stored while it was checked, and names the row', async () => {
    const first = 10_000;
    const last = first + ROWS - 1;
    const entity = patientsWith(async () => {
      // The file's first row, checked already as a new patient.
      const one = await importPatients(entityNamed('patients')!, patientsFile('one.csv', first, 1));
      expect(one.status).toBe('completed');
    });
    const result = await importPatients(entity, patientsFile('raced.csv', first, ROWS));
    expect(result.status).toBe('failed');
    expect(result.inserted).toBe(0);
    expect(result.first_errors).toEqual([
      {
        row: 2,
        column: 'patient_id',
        message:
          'a patient with this patient_id was stored by someone else while the file was checked; import the file again',
      },
    ]);
    // The other import's patient is there; none of this file's.
    expect(await storedCodes([code(first), code(last)])).toEqual([code(first)]);
  });
});
