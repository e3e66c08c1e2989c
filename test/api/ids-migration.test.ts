import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { ENGINE, openMigratedFrom } from '../db.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { migrations } from '../../src/core/db/migrations/index.js';

/**
 * Migration 42 on a SQLite database that already deleted rows: the patients' counter starts past
 * the highest id kept and the highest id its audit rows name, so neither comes back. (PostgreSQL's
 * identity sequences never go back; the migration leaves them alone.)
 */
const ONE_RECORD = migrations.find((m) => m.name === 'one_patient_record')!.version;
const before = migrations.filter((m) => m.version < ONE_RECORD);

const NOW = '2026-01-01T00:00:00.000Z';
const patient = (id: number) =>
  `INSERT INTO patients (id, organization_id, patient_code, first_name, last_name, date_of_birth, created_at, updated_at)
   VALUES (${id}, 1, 'PAT2026010100${id}', 'P${id}', 'Seed', '1990-01-01', '${NOW}', '${NOW}')`;
const audit = (action: string, entityId: number) =>
  `INSERT INTO audit_log (organization_id, action, entity, entity_id, created_at, prev_hash, hash)
   VALUES (1, '${action}', 'patient', '${entityId}', '${NOW}', 'x', 'y')`;
const SEED = [
  `INSERT INTO organizations (id, name, timezone, currency, date_format, settings, created_at, updated_at) VALUES (1, 'Lab', 'Asia/Kolkata', 'INR', 'DD/MM/YYYY', '{}', '${NOW}', '${NOW}')`,
  patient(3),
  patient(5),
  // Patient 9 was registered and deleted before the upgrade: only its audit rows remain.
  audit('create', 9),
  audit('delete', 9),
];

let open: Database_[] = [];
afterEach(async () => {
  for (const d of open) await d.close();
  open = [];
});

describe('migration 42 on a database that deleted rows', () => {
  it.skipIf(ENGINE !== 'sqlite')('gives the next patient an id past every id the audit trail names', async () => {
    const d = await openMigratedFrom(before, SEED);
    open.push(d);
    await d.db.executeQuery(
      CompiledQuery.raw(patient(0).replace('VALUES (0,', 'VALUES (NULL,').replace('PAT20260101000', 'PATNEW')),
    );
    const rows = await d.db.executeQuery<{ id: number }>(
      CompiledQuery.raw("SELECT id FROM patients WHERE patient_code = 'PATNEW'"),
    );
    expect(rows.rows[0]!.id).toBe(10);
    const kept = await d.db.executeQuery<{ id: number }>(CompiledQuery.raw('SELECT id FROM patients ORDER BY id'));
    expect(kept.rows.map((r) => r.id)).toEqual([3, 5, 10]);
  });
});
