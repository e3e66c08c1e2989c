import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';

/**
 * One patient, one record.
 *
 * - patient_aliases: the code (and old id) of a patient merged into another. The merged row is
 *   deleted once everything that named it points at the kept patient, so lists, counts, reports and
 *   the search index hold one record; the alias keeps the old code finding the kept patient.
 * - indexes for the duplicate check at registration (same mobile; same birth date).
 * - SQLite: the audited tables whose rows can be deleted get AUTOINCREMENT, so an id once used is
 *   never given to another row (without it SQLite takes max(id) + 1, and a deleted last row's id
 *   comes back: two "create sample 11" in the audit trail for two samples). PostgreSQL's identity
 *   sequences never go back, so there is nothing to do there.
 */
export const sql = /* sql */ `
CREATE TABLE patient_aliases (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  patient_code TEXT NOT NULL,
  merged_patient_id INTEGER NOT NULL,
  patient_id INTEGER NOT NULL REFERENCES patients(id) ON DELETE CASCADE,
  merged_by INTEGER REFERENCES users(id),
  merged_at TEXT NOT NULL
);
CREATE UNIQUE INDEX patient_aliases_org_code ON patient_aliases (organization_id, patient_code);
CREATE INDEX patient_aliases_org_merged ON patient_aliases (organization_id, merged_patient_id);
CREATE INDEX patient_aliases_patient ON patient_aliases (patient_id);
CREATE INDEX patients_org_phone ON patients (organization_id, phone);
CREATE INDEX patients_org_birth ON patients (organization_id, date_of_birth);
`;

/**
 * Each audited table whose rows the code deletes, with the audit entities that name its ids (the
 * trail keeps ids of rows deleted before this migration; the counter starts above them too).
 * test/api/ids-never-reused.test.ts checks that every table the core deletes from is here or is not audited.
 */
export const AUTOINCREMENT_TABLES: Record<string, readonly string[]> = {
  patients: ['patient'],
  bills: ['bill'],
  samples: ['sample'],
  test_results: ['test_result'],
  invoices: ['invoice'],
  payers: ['payer'],
  payer_prices: ['payer_price'],
  qc_materials: ['qc_material'],
  connections: ['connection'],
  data_mappings: ['data_mapping'],
  users: ['user', 'doctor'],
  inventory_items: ['inventory_item'],
  suppliers: ['supplier'],
  custom_reports: ['custom_report'],
  interop_receivers: ['interop_receiver'],
  interop_deliveries: ['interop_delivery'],
  tests: ['test'],
  test_profiles: ['test_profile'],
  test_packages: ['test_package'],
  equipment: ['equipment'],
  equipment_services: ['calibration', 'maintenance'],
};

const PLAIN_KEY = /^(\s*)id INTEGER PRIMARY KEY,/m;

export function sqliteSteps(sqlite: Database.Database): void {
  for (const [table, entities] of Object.entries(AUTOINCREMENT_TABLES)) {
    rebuildTable(sqlite, table, (create) => {
      if (!PLAIN_KEY.test(create)) throw new Error(`042: ${table} has no plain integer key`);
      return create.replace(PLAIN_KEY, '$1id INTEGER PRIMARY KEY AUTOINCREMENT,');
    });
    // The rows copied in set the counter to the highest id kept; a deleted row above it still has
    // its audit rows, so the counter starts past those as well.
    const marks = entities.map(() => '?').join(', ');
    const audited = sqlite
      .prepare(
        `SELECT max(CAST(entity_id AS INTEGER)) AS n FROM audit_log WHERE entity IN (${marks}) AND entity_id GLOB '[0-9]*'`,
      )
      .get(...entities) as { n: number | null };
    const kept = sqlite.prepare(`SELECT max(id) AS n FROM "${table}"`).get() as { n: number | null };
    const top = Math.max(audited.n ?? 0, kept.n ?? 0);
    if (top === 0) continue;
    sqlite.prepare('DELETE FROM sqlite_sequence WHERE name = ?').run(table);
    sqlite.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, top);
  }
}
