import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { makeLab, type TestLab } from '../helpers.js';
import { AUTOINCREMENT_TABLES } from '../../src/core/db/migrations/042_one_patient_record.js';
import { migrations } from '../../src/core/db/migrations/index.js';

/** Tables made with AUTOINCREMENT ids by a migration after 042 (their ids are never given twice either). */
const CREATED_AUTOINCREMENT = new Set(
  migrations.flatMap((m) =>
    [...m.sql.matchAll(/CREATE TABLE ([a-z_]+) \(\s*id INTEGER PRIMARY KEY AUTOINCREMENT/g)].map((x) => x[1]!),
  ),
);

let lab: TestLab;
let test1: number;
let patient: number;

beforeAll(async () => {
  lab = await makeLab();
  test1 = (
    await lab.admin.post('/api/tests', { name: 'Haemoglobin', code: 'HBX', price: 150, category: 'Haematology' })
  ).json().test.id;
  patient = (
    await lab.admin.post('/api/patients', { first_name: 'Ids', last_name: 'Never', age: 40, gender: 'Female' })
  ).json().patient.id;
});
afterAll(() => lab.close());

async function auditIds(entity: string): Promise<string[]> {
  const rows = await sql<{
    entity_id: string;
  }>`SELECT entity_id FROM audit_log WHERE entity = ${entity} AND action = 'create'`.execute(lab.database.db);
  return rows.rows.map((r) => String(r.entity_id));
}

describe('ids are never given twice', () => {
  it('a sample made after a cancelled bill withdrew its pending samples takes a new id', async () => {
    const bill = (
      await lab.admin.post('/api/bills', { patient_id: patient, items: [{ item_type: 'test', item_id: test1 }] })
    ).json().bill;
    const ordered = (await lab.admin.get(`/api/samples?bill_id=${bill.id}&limit=50`)).json();
    const withdrawn: number[] = (ordered.samples as { id: number }[]).map((s) => s.id);
    expect(withdrawn.length).toBeGreaterThan(0);
    const cancel = await lab.admin.put(`/api/bills/${bill.id}`, {
      status: 'cancelled',
      cancel_reason: 'Entered twice',
    });
    expect(cancel.statusCode).toBe(200);

    const res = await lab.admin.post('/api/samples', { patient_id: patient, sample_type: 'Blood', test_ids: [test1] });
    expect(res.statusCode).toBe(201);
    const id: number = res.json().sample.id;
    expect(id).toBeGreaterThan(Math.max(...withdrawn));
    const created = await auditIds('sample');
    expect(created.filter((x) => x === String(id))).toHaveLength(1);
  });

  it('a patient registered after the newest one was deleted takes a new id', async () => {
    const gone = (
      await lab.admin.post('/api/patients', { first_name: 'Deleted', last_name: 'Later', age: 30, gender: 'Male' })
    ).json().patient.id;
    expect((await lab.admin.delete(`/api/patients/${gone}`)).statusCode).toBe(200);
    const next = (
      await lab.admin.post('/api/patients', { first_name: 'Someone', last_name: 'Else', age: 52, gender: 'Female' })
    ).json().patient.id;
    expect(next).toBeGreaterThan(gone);
  });

  it('every audited table the core deletes rows from is one whose ids are never reused', () => {
    const deleted = new Set<string>();
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts'))
          for (const m of readFileSync(p, 'utf8').matchAll(/deleteFrom\('([a-z_]+)'\)/g)) deleted.add(m[1]!);
      }
    };
    walk(join(__dirname, '../../src/core'));
    // Rows without an audited id of their own: sessions and challenges, a patient's portal PIN
    // (keyed by the patient), link rows, index rows, a
    // queue, the history lines of an equipment item deleted with it, an invoice's lines,
    // a sample's and a test's links.
    const notAudited = new Set([
      'sessions',
      'portal_sessions',
      'two_factor_challenges',
      'two_factor_recovery_codes',
      'user_two_factor',
      'role_permissions',
      'patient_search_words',
      'patient_portal_access',
      'outbox',
      'invoice_lines',
      // a bill's lines: the bill's own audit row holds the lines before and after a change
      'bill_items',
      'equipment_status_history',
      'equipment_files',
      'sample_tests',
      'test_consumption',
      // the report rollups: figures derived from a lab day's rows, rebuilt from them, and the marks
      // of the minutes whose day must be rebuilt
      'rollup_billed',
      'rollup_workload',
      'rollup_turnaround',
      'rollup_day',
      'rollup_stale',
      // a stop of autoverification, audited by the test it stops (0: the whole lab), not by its id
      'autoverify_stops',
      // rows without an id of their own: a calendar's fasting hours and an area's pin codes (in the
      // calendar's and the area's audit rows), and a barcode held for a phone until a tube takes it
      'home_fasting',
      'home_area_pins',
      'barcode_reservations',
    ]);
    const missing = [...deleted].filter(
      (t) => !notAudited.has(t) && !(t in AUTOINCREMENT_TABLES) && !CREATED_AUTOINCREMENT.has(t),
    );
    expect(missing).toEqual([]);
    // The catalogue deletes through one helper naming its three tables.
    for (const t of ['tests', 'test_profiles', 'test_packages']) expect(AUTOINCREMENT_TABLES).toHaveProperty(t);
  });
});
