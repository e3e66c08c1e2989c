import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAuditBatch } from '../audit/audit.js';
import { raiseSequence, reserveSequence } from '../sequences.js';
import { birthDateFromAge } from '../../shared/age.js';
import type { PatientCreate } from '../../shared/schemas/patients.js';
import type { PrefixCounts } from '../db/patient-search.js';
import { insertPatientRows, type PatientInsertRow } from './repository.js';

/**
 * Patients registered in bulk (an import): the same columns and rules as a registration
 * (insertPatient), for a whole batch at once inside the caller's transaction: codes from the lab's
 * daily counter in one step, multi-row INSERTs, the search index (SQLite's triggers, PostgreSQL's
 * words in a few statements; with `prefixesLater` their prefix counts are kept for the caller to
 * write once, see PrefixCounts), and one audit row per patient written as one chained batch.
 */

/** A lims patient code: PAT + the registration day (YYYYMMDD) + its number that day (4 digits or more). */
export const PATIENT_CODE = /^PAT(\d{8})(\d{4,6})$/;

export interface BulkPatient {
  input: PatientCreate;
  /** The code the patient keeps (checked and free); null: the next code of today. */
  code: string | null;
  /** When the patient was registered (an earlier system's date); now when null. */
  createdAt: string | null;
  /** The birth date given was itself worked out from an age (as the export says). */
  dobEstimated: boolean;
}

export async function insertPatientsBulk(
  trx: Db,
  actor: Actor,
  patients: readonly BulkPatient[],
  today: string,
  prefixesLater?: PrefixCounts,
): Promise<number> {
  if (!patients.length) return 0;
  const org = actor.organizationId;
  const highest = keptCodeCounters(patients);
  for (const [day, n] of highest) await raiseSequence(trx, org, `patient:${day}`, n);
  const day = today.replace(/-/g, '');
  const fresh = patients.filter((p) => !p.code).length;
  let next = fresh ? (await reserveSequence(trx, org, `patient:${day}`, fresh)) - fresh + 1 : 0;
  const now = nowIso();
  const rows = patients.map((p) =>
    patientInsertRow(actor, p, p.code ?? `PAT${day}${String(next++).padStart(4, '0')}`, today, now),
  );
  const ids = await insertPatientRows(trx, rows, prefixesLater);
  await writeAuditBatch(
    trx,
    actor,
    rows.map((r) => {
      const id = ids.get(r.patient_code)!;
      return { action: 'create' as const, entity: 'patient', entityId: id, newValues: { id, ...r } };
    }),
  );
  return rows.length;
}

/** Codes kept from the file move their day's counter past them, so no registration reuses one. */
export function keptCodeCounters(patients: readonly BulkPatient[]): Map<string, number> {
  const highest = new Map<string, number>();
  for (const p of patients) {
    const m = p.code ? PATIENT_CODE.exec(p.code) : null;
    if (m) highest.set(m[1]!, Math.max(highest.get(m[1]!) ?? 0, Number(m[2])));
  }
  return highest;
}

/** A new patient's stored columns, as a registration would store them. */
export function patientInsertRow(
  actor: Actor,
  p: BulkPatient,
  code: string,
  today: string,
  now: string,
): PatientInsertRow {
  const i = p.input;
  const known = i.date_of_birth ?? null;
  return {
    organization_id: actor.organizationId,
    patient_code: code,
    title: i.title ?? null,
    first_name: i.first_name,
    last_name: i.last_name,
    date_of_birth: known ?? birthDateFromAge(i.age!, i.age_unit ?? 'years', today),
    dob_estimated: known ? (p.dobEstimated ? 1 : 0) : 1,
    gender: i.gender ?? null,
    phone: i.phone ?? null,
    email: i.email ?? null,
    address: i.address ?? null,
    city: i.city ?? null,
    state: i.state ?? null,
    pincode: i.pincode ?? null,
    emergency_contact: i.emergency_contact ?? null,
    emergency_phone: i.emergency_phone ?? null,
    emergency_relation: i.emergency_relation ?? null,
    blood_group: i.blood_group ?? null,
    allergies: i.allergies ?? null,
    medical_history: i.medical_history ?? null,
    insurance_provider: i.insurance_provider ?? null,
    insurance_number: i.insurance_number ?? null,
    legacy_id: i.legacy_id ?? null,
    membership_type: i.membership_type ?? 'none',
    created_by: actor.userId,
    created_at: p.createdAt ?? now,
    updated_at: now,
  };
}
