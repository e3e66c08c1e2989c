import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { PatientRow } from './mappers.js';
import type { PatientAliasesTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable, labUpdate, labDelete } from '../db/lab-tables.js';

/**
 * The SQL of one patient, one record: the look-ups of the duplicate check and the moves of a merge.
 * A merge touches every table that names a patient, so those moves live here in one list (each a
 * plain re-pointing of patient_id within the lab) rather than one function per feature:
 * test/api/patients-merge.test.ts fails when a table with a patient_id column is not in it.
 */

/** The tables whose rows move to the kept patient, patient_id re-pointed. */
export const MOVED_TABLES = [
  'bills',
  'payments',
  'invoices',
  'samples',
  'test_results',
  'visits',
  'portal_sessions',
  'home_bookings',
] as const;
export type MovedTable = (typeof MOVED_TABLES)[number];

/**
 * Tables that hold at most one row per patient and key: the report consent (one per patient) and a
 * centre's link to its patient (one per centre). A merge keeps the kept patient's row where both
 * have one, and moves the merged patient's otherwise (moveKeyedRows).
 */
export const KEYED_PATIENT_TABLES = {
  patient_report_consents: [],
  centre_patients: ['centre_id'],
} as const satisfies Record<string, readonly string[]>;

/** One keyed table's rows of `from` re-pointed to `to`, except those `to` already has; answers how many moved. */
export async function moveKeyedRows(
  trx: Db,
  organizationId: number,
  table: keyof typeof KEYED_PATIENT_TABLES,
  from: number,
  to: number,
): Promise<number> {
  const keys: readonly string[] = KEYED_PATIENT_TABLES[table];
  const same = keys.map((k) => sql`AND kept.${sql.ref(k)} = ${sql.table(table)}.${sql.ref(k)}`);
  await sql`DELETE FROM ${sql.table(table)} WHERE organization_id = ${organizationId} AND patient_id = ${from}
    AND EXISTS (SELECT 1 FROM ${sql.table(table)} kept WHERE kept.organization_id = ${organizationId}
      AND kept.patient_id = ${to} ${sql.join(same, sql` `)})`.execute(trx);
  const r = await sql`UPDATE ${sql.table(table)} SET patient_id = ${to}
    WHERE organization_id = ${organizationId} AND patient_id = ${from}`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * Tables with a patient_id handled otherwise: portal access (one per patient, moved by
 * movePortalAccess), aliases (re-pointed by repointAliases), PostgreSQL's search words (the merged
 * patient's go with its row), and the keyed tables above.
 */
export const OTHER_PATIENT_TABLES = [
  'patient_portal_access',
  'patient_aliases',
  'patient_search_words',
  ...Object.keys(KEYED_PATIENT_TABLES),
] as string[];

/** Patients of the lab with this mobile, or born on this date (a known date), at most `limit`. */
export async function likelySamePeople(
  db: Db,
  organizationId: number,
  by: { phone: string | null; dateOfBirth: string | null },
  limit: number,
): Promise<PatientRow[]> {
  const out = new Map<number, PatientRow>();
  if (by.phone) {
    const rows = await labRows(db, 'patients', organizationId)
      .where('phone', '=', by.phone)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    for (const r of rows) out.set(r.id, r);
  }
  if (by.dateOfBirth) {
    const rows = await labRows(db, 'patients', organizationId)
      .where('date_of_birth', '=', by.dateOfBirth)
      .where('dob_estimated', '=', 0)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    for (const r of rows) out.set(r.id, r);
  }
  return [...out.values()];
}

/** When each of these patients was last billed (their last visit), by id. */
export async function lastBilled(db: Db, organizationId: number, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await labTable(db, 'bills', organizationId)
    .select((eb) => ['patient_id', eb.fn.max('created_at').as('last')])
    .where('patient_id', 'in', [...ids])
    .groupBy('patient_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.patient_id), String(r.last)]));
}

/** Re-points one table's rows from one patient to another; answers how many moved. */
export async function moveRows(
  trx: Db,
  organizationId: number,
  table: MovedTable,
  from: number,
  to: number,
): Promise<number> {
  const r = await trx
    .updateTable(table)
    .set({ patient_id: to })
    .where('organization_id', '=', organizationId)
    .where('patient_id', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The merged patient's portal PIN moves when the kept patient has none; otherwise the kept
 * patient's stays and the other goes. Answers whether a PIN moved.
 */
export async function movePortalAccess(trx: Db, organizationId: number, from: number, to: number): Promise<boolean> {
  const kept = await labTable(trx, 'patient_portal_access', organizationId)
    .select('patient_id')
    .where('patient_id', '=', to)
    .executeTakeFirst();
  if (kept) {
    await labDelete(trx, 'patient_portal_access', organizationId).where('patient_id', '=', from).execute();
    return false;
  }
  const r = await labUpdate(trx, 'patient_portal_access', organizationId)
    .set({ patient_id: to })
    .where('patient_id', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Codes merged into `from` earlier now name `to` (a chain of merges ends at the record kept). */
export async function repointAliases(trx: Db, organizationId: number, from: number, to: number): Promise<number> {
  const r = await labUpdate(trx, 'patient_aliases', organizationId)
    .set({ patient_id: to })
    .where('patient_id', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertAlias(trx: Db, values: Insertable<PatientAliasesTable>): Promise<void> {
  await trx.insertInto('patient_aliases').values(values).execute();
}

/** The patient kept for a merged patient's code (upper-case), if the code is an alias. */
export async function aliasByCode(db: Db, organizationId: number, code: string): Promise<number | undefined> {
  const r = await labTable(db, 'patient_aliases', organizationId)
    .select('patient_id')
    .where('patient_code', '=', code.toUpperCase())
    .executeTakeFirst();
  return r ? Number(r.patient_id) : undefined;
}

/** The patient kept for a merged patient's old id, if that id was merged. */
export async function aliasById(db: Db, organizationId: number, mergedId: number): Promise<number | undefined> {
  const r = await labTable(db, 'patient_aliases', organizationId)
    .select('patient_id')
    .where('merged_patient_id', '=', mergedId)
    .executeTakeFirst();
  return r ? Number(r.patient_id) : undefined;
}

/** The codes merged into a patient, oldest merge first. */
export async function aliasesOf(db: Db, organizationId: number, patientId: number): Promise<string[]> {
  const rows = await labTable(db, 'patient_aliases', organizationId)
    .select('patient_code')
    .where('patient_id', '=', patientId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.patient_code);
}
