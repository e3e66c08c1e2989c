import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { engineOf } from '../../src/core/db/dialect.js';
import { verifyChain } from '../../src/core/audit/audit.js';
import { entityNamed, runImport } from '../../src/core/transfer/service.js';

/**
 * A patients import stages its new rows before the write lock (TEMP tables, codes and ids taken
 * batch by batch) and its transaction copies them in, chaining their audit rows in the database.
 * What is stored must be what the row-by-row write stored: every patient with its code and id,
 * one chained audit row each naming that id, changes to existing patients in the same file, the
 * day's counter past every code, and nothing staged left behind.
 */

let lab: TestLab;
let dir: string;

beforeAll(async () => {
  lab = await makeLab();
  dir = tempDir('lims-import-staged-');
});
afterAll(() => lab.close());

const NEW = 1_500;
/** A name part from a number (names hold letters only). */
const letters = (n: number) => [...String(n)].map((d) => 'abcdefghij'[Number(d)]).join('');

async function stagesLeft(): Promise<number> {
  const db = lab.database.db;
  const r =
    engineOf(db) === 'postgres'
      ? await sql<{ n: string }>`SELECT count(*) AS n FROM pg_class WHERE relpersistence = 't'`.execute(db)
      : await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_temp_master`.execute(db);
  return Number(r.rows[0]!.n);
}

describe('a staged patients import', () => {
  it('stores new and changed patients with their codes, ids and a chained audit row each', async () => {
    const registered = await lab.admin.post('/api/patients', {
      first_name: 'Asha',
      last_name: 'Rao',
      gender: 'Female',
      date_of_birth: '1996-02-03',
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const before = registered.json().patient as { id: number; patient_id: string };
    const day = before.patient_id.slice(3, 11);
    const rows = [['patient_id', 'first_name', 'last_name', 'gender', 'age', 'city']];
    // The registered patient, changed by the file; a code kept from the file, far ahead of the counter;
    // another system's number (a legacy ID); and new patients without a code.
    rows.push([before.patient_id, 'Asha', 'Rao', 'Female', '30', 'Mysuru']);
    rows.push([`PAT${day}0500`, 'Kept', 'Code', 'Male', '41', 'Pune']);
    rows.push(['OLD-77', 'Legacy', 'Number', 'Other', '52', 'Goa']);
    for (let i = 0; i < NEW; i++)
      rows.push(['', `New ${letters(i)}`, 'Patient', 'Female', String(20 + (i % 50)), 'Hubli']);
    const path = join(dir, 'mixed.csv');
    writeFileSync(path, stringify(rows));
    const result = await runImport(lab.database.db, systemActor(lab.organizationId), {
      entity: entityNamed('patients')!,
      path,
      dryRun: false,
      update: true,
      origin: 'cli',
      reportPath: () => null,
      spoolDir: join(dir, 'spool'),
    });
    expect(result, JSON.stringify(result.first_errors.slice(0, 3))).toMatchObject({
      status: 'completed',
      inserted: NEW + 2,
      updated: 1,
      errors: 0,
    });

    const stored = await lab.database.db
      .selectFrom('patients')
      .select(['id', 'patient_code', 'first_name', 'legacy_id', 'city'])
      .where('organization_id', '=', lab.organizationId)
      .orderBy('id')
      .execute();
    expect(stored).toHaveLength(NEW + 3);
    expect(stored[0]).toMatchObject({ id: before.id, city: 'Mysuru' });
    expect(stored.find((p) => p.first_name === 'Kept')?.patient_code).toBe(`PAT${day}0500`);
    expect(stored.find((p) => p.first_name === 'Legacy')?.legacy_id).toBe('OLD-77');
    // New codes continue the day's counter past the kept one, each once.
    const codes = stored.map((p) => p.patient_code);
    expect(new Set(codes).size).toBe(codes.length);
    // (The legacy row is new to lims too: it takes a code of the day like the rows without one.)
    const fresh = stored
      .filter((p) => /^(New |Legacy)/.test(p.first_name))
      .map((p) => Number(p.patient_code.slice(11)));
    expect([Math.min(...fresh), Math.max(...fresh)]).toEqual([501, 500 + NEW + 1]);

    // One audit row per new patient naming its id and code, all chained; the change audited too.
    const audit = await lab.database.db
      .selectFrom('audit_log')
      .select(['entity_id', 'new_values'])
      .where('entity', '=', 'patient')
      .where('action', '=', 'create')
      .orderBy('id')
      .execute();
    const created = new Map(
      audit.map((a) => [Number(a.entity_id), JSON.parse(a.new_values!) as { patient_code: string }]),
    );
    for (const p of stored) expect(created.get(Number(p.id))?.patient_code).toBe(p.patient_code);
    const updates = await lab.database.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('entity', '=', 'patient')
      .where('action', '=', 'update')
      .execute();
    expect(updates.map((u) => Number(u.entity_id))).toEqual([before.id]);
    expect(await verifyChain(lab.database.db)).toMatchObject({ ok: true });

    // Nothing staged is left, and a registration afterwards takes a new id and the next code.
    expect(await stagesLeft()).toBe(0);
    const next = await lab.admin.post('/api/patients', {
      first_name: 'Next',
      last_name: 'One',
      gender: 'Male',
      date_of_birth: '2017-08-09',
      confirm_new: true,
    });
    expect(next.statusCode, next.body).toBe(201);
    const after = next.json().patient as { id: number; patient_id: string };
    expect(after.id).toBeGreaterThan(Math.max(...stored.map((p) => Number(p.id))));
    expect(after.patient_id).toBe(`PAT${day}${String(500 + NEW + 2).padStart(4, '0')}`);
    expect(await verifyChain(lab.database.db)).toMatchObject({ ok: true });
  });
});
