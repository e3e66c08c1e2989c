import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { NotFoundError } from '../errors.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type {
  Patient,
  PatientCreate,
  PatientListQuery,
  PatientPage,
  PatientUpdate,
} from '../../shared/schemas/patients.js';
import {
  deletePatientRow,
  findPatient,
  insertPatientRow,
  isPatientOfDoctor,
  pagePatients,
  updatePatientRow,
  type PatientRow,
} from './repository.js';
import { toPatient } from './mappers.js';
import { announce } from '../events.js';
import { nextSequence } from '../sequences.js';
import { labToday, organizationTimezone } from '../settings/service.js';
import { localDate } from '../../shared/time.js';
import { birthDateFromAge } from '../../shared/age.js';
import { refuseLikelyDuplicate } from './duplicates.js';
import { aliasById, aliasByCode } from './merge-repository.js';
import { patientsByLegacyIds, refuseTakenLegacyId } from './legacy-repository.js';

type Writable = Omit<
  PatientRow,
  'id' | 'organization_id' | 'patient_code' | 'created_by' | 'created_at' | 'updated_at'
>;

/** The birth date given, or the one an age told at the desk stands for (marked approximate). */
function birthOf(input: PatientUpdate, today: string): { date_of_birth: string; dob_estimated: number } | null {
  if (input.date_of_birth) return { date_of_birth: input.date_of_birth, dob_estimated: 0 };
  if (input.age == null) return null;
  return { date_of_birth: birthDateFromAge(input.age, input.age_unit ?? 'years', today), dob_estimated: 1 };
}

function columns(input: PatientCreate, today: string): Writable {
  return {
    title: input.title ?? null,
    first_name: input.first_name,
    last_name: input.last_name,
    ...birthOf(input, today)!,
    gender: input.gender ?? null,
    phone: input.phone ?? null,
    email: input.email ?? null,
    address: input.address ?? null,
    city: input.city ?? null,
    state: input.state ?? null,
    pincode: input.pincode ?? null,
    emergency_contact: input.emergency_contact ?? null,
    emergency_phone: input.emergency_phone ?? null,
    emergency_relation: input.emergency_relation ?? null,
    blood_group: input.blood_group ?? null,
    allergies: input.allergies ?? null,
    medical_history: input.medical_history ?? null,
    insurance_provider: input.insurance_provider ?? null,
    insurance_number: input.insurance_number ?? null,
    legacy_id: input.legacy_id ?? null,
    membership_type: input.membership_type ?? 'none',
  };
}

/** `doctorId`: only that doctor's own patients (see doctorLimit in results/scope.ts). */
export async function listPatients(
  db: Db,
  organizationId: number,
  q: PatientListQuery,
  doctorId?: number,
): Promise<PatientPage> {
  const resolved = await withAliasResolved(db, organizationId, q);
  const { rows, total } = await pagePatients(db, organizationId, resolved, doctorId);
  const today = await labToday(db, organizationId);
  return { patients: rows.map((r) => toPatient(r, today)), ...pageEnvelope(total, q.page, q.limit) };
}

/**
 * A search for a merged patient's code is a search for the code of the patient kept; a search for a
 * patient's old ID (from the lab's earlier system) is a search for that patient's code.
 */
async function withAliasResolved(db: Db, organizationId: number, q: PatientListQuery): Promise<PatientListQuery> {
  const term = q.search?.trim();
  if (!term) return q;
  const found = term.length <= 60 ? await patientsByLegacyIds(db, organizationId, [term, term.toUpperCase()]) : null;
  const legacy = found?.get(term) ?? found?.get(term.toUpperCase());
  if (legacy) return { ...q, search: legacy.patient_code };
  if (!/^[A-Za-z0-9-]{4,40}$/.test(term)) return q;
  const kept = await aliasByCode(db, organizationId, term);
  const row = kept === undefined ? undefined : await findPatient(db, organizationId, kept);
  return row ? { ...q, search: row.patient_code } : q;
}

/**
 * A patient by id; the id of a patient merged into another answers the patient kept. `doctorId`:
 * another doctor's patient answers 404, as if it did not exist.
 */
export async function getPatient(db: Db, organizationId: number, id: number, doctorId?: number): Promise<Patient> {
  let row = await findPatient(db, organizationId, id);
  if (!row) {
    const kept = await aliasById(db, organizationId, id);
    if (kept !== undefined) row = await findPatient(db, organizationId, kept);
  }
  if (!row || (doctorId !== undefined && !(await isPatientOfDoctor(db, doctorId, row.id))))
    throw new NotFoundError('Patient', id);
  return toPatient(row, await labToday(db, organizationId));
}

/**
 * Inside an open transaction: stores the patient with a new code PAT+YYYYMMDD+NNNN and audits it;
 * refused (POSSIBLE_DUPLICATE, with the candidates) when the lab has a likely match, unless the input
 * says confirm_new.
 */
export async function insertPatient(trx: Db, actor: Actor, input: PatientCreate): Promise<PatientRow> {
  const today = await labToday(trx, actor.organizationId);
  const values = columns(input, today);
  await refuseTakenLegacyId(trx, actor.organizationId, values.legacy_id);
  if (!input.confirm_new) await refuseLikelyDuplicate(trx, actor.organizationId, values, today);
  const day = localDate(await organizationTimezone(trx, actor.organizationId)).replace(/-/g, '');
  const seq = await nextSequence(trx, actor.organizationId, `patient:${day}`);
  const now = nowIso();
  const row = await insertPatientRow(trx, {
    ...values,
    organization_id: actor.organizationId,
    patient_code: `PAT${day}${String(seq).padStart(4, '0')}`,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, { action: 'create', entity: 'patient', entityId: row.id, newValues: row });
  return row;
}

export async function createPatient(db: Db, actor: Actor, input: PatientCreate): Promise<Patient> {
  const row = await db.transaction().execute((trx) => insertPatient(trx, actor, input));
  return toPatient(row, await labToday(db, actor.organizationId));
}

export async function updatePatient(db: Db, actor: Actor, id: number, input: PatientUpdate): Promise<Patient> {
  return db.transaction().execute(async (trx) => {
    const before = await findPatient(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Patient', id);
    const after = await applyPatientUpdate(trx, actor, before, input);
    return toPatient(after, await labToday(trx, actor.organizationId));
  });
}

/** Inside an open transaction: changes the given fields of a stored patient and audits what changed. */
export async function applyPatientUpdate(
  trx: Db,
  actor: Actor,
  before: PatientRow,
  input: PatientUpdate,
): Promise<PatientRow> {
  const id = before.id;
  const { age: _age, age_unit: _unit, date_of_birth: _dob, ...fields } = input;
  // The birth date changes when a new one is given, or an age without one (the form sends the date back unchanged).
  const birthChanged =
    (input.date_of_birth && input.date_of_birth !== before.date_of_birth) ||
    (!input.date_of_birth && input.age != null);
  await refuseTakenLegacyId(trx, actor.organizationId, input.legacy_id, id);
  const patch: Partial<Writable> = birthChanged ? { ...birthOf(input, await labToday(trx, actor.organizationId)) } : {};
  for (const [k, v] of Object.entries(fields) as [keyof Writable, unknown][]) {
    if (v === undefined) continue;
    (patch as Record<string, unknown>)[k] = k === 'membership_type' ? (v ?? 'none') : (v ?? null);
  }
  const after = await updatePatientRow(trx, actor.organizationId, id, { ...patch, updated_at: nowIso() });
  const { oldValues, newValues } = diff(before, after);
  delete oldValues.updated_at;
  delete newValues.updated_at;
  if (Object.keys(newValues).length > 0) {
    await writeAudit(trx, actor, { action: 'update', entity: 'patient', entityId: id, oldValues, newValues });
  }
  return after;
}

export async function deletePatient(db: Db, actor: Actor, id: number): Promise<Patient> {
  return db.transaction().execute(async (trx) => {
    const before = await findPatient(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Patient', id);
    await announce(trx, actor, 'patient.deleting', { patient: before });
    await deletePatientRow(trx, actor.organizationId, id);
    await writeAudit(trx, actor, { action: 'delete', entity: 'patient', entityId: id, oldValues: before });
    return toPatient(before, await labToday(trx, actor.organizationId));
  });
}
export { PatientStage } from './staged.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { insertPatientsBulk, PATIENT_CODE, type BulkPatient } from './bulk.js';
export {
  PATIENT_CSV_COLUMNS,
  patientArrayPages,
  patientPages,
  patientParallelPlan,
  type PatientExportFilters,
} from './export.js';
export { finishPatientRow } from './export-row.js';
