import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { CoreEvents } from '../events.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { findPatient } from '../patients/repository.js';
import { resolveDoctor } from '../users/service.js';
import { assertInScope, doctorLimit } from '../results/service.js';
import { organizationTimezone } from '../settings/service.js';
import { localDate, localMinuteStamp } from '../../shared/time.js';
import type { Visit, VisitCreate, VisitUpdate } from '../../shared/schemas/history.js';
import {
  findVisit,
  findVisitRow,
  insertVisitRow,
  openVisitsOfBill,
  updateVisitRow,
  visitsOfPatient,
} from './repository.js';
import type { VisitsTable } from './tables.js';

/** HH:MM in the lab's zone. */
function localTime(timeZone: string, d: Date): string {
  const stamp = localMinuteStamp(timeZone, d);
  return `${stamp.slice(8, 10)}:${stamp.slice(10, 12)}`;
}

/**
 * A bill with a doctor is a consultation that happened: inside the bill's transaction, record it as a
 * completed visit on the bill's date, linked to the bill and the doctor. Lab-only bills are no visit.
 */
export async function recordVisitForBill(
  trx: Db,
  actor: Actor,
  bill: CoreEvents['bill.created']['bill'],
): Promise<number | null> {
  if (bill.doctor_id === null || bill.visit_type !== 'doctor_visit') return null;
  const timeZone = await organizationTimezone(trx, bill.organization_id);
  const at = new Date(bill.created_at);
  return insertNewVisit(
    trx,
    actor,
    {
      organization_id: bill.organization_id,
      patient_id: bill.patient_id,
      doctor_id: bill.doctor_id,
      bill_id: bill.id,
      visit_type: 'consultation',
      status: 'completed',
      visit_date: localDate(timeZone, at),
      visit_time: localTime(timeZone, at),
      chief_complaint: null,
    },
    { bill_number: bill.bill_number },
  );
}

/**
 * A new visit, audited (with `audited` beside its row): no findings yet, made by the actor now,
 * whether the desk booked it or a bill with a doctor recorded it.
 */
async function insertNewVisit(
  trx: Db,
  actor: Actor,
  values: Omit<
    Insertable<VisitsTable>,
    'diagnosis' | 'treatment' | 'follow_up_date' | 'created_by' | 'created_at' | 'updated_at'
  >,
  audited: Record<string, unknown> = {},
): Promise<number> {
  const now = nowIso();
  const row = await insertVisitRow(trx, {
    ...values,
    diagnosis: null,
    treatment: null,
    follow_up_date: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'visit',
    entityId: row.id,
    newValues: { ...row, ...audited },
  });
  return row.id;
}

/**
 * A bill that is cancelled or deleted no longer stands for a consultation: its open or completed
 * visits are marked cancelled (with the reason), in the bill's transaction.
 */
export async function cancelVisitsOfBill(trx: Db, actor: Actor, billId: number, reason: string): Promise<void> {
  const rows = await openVisitsOfBill(trx, actor.organizationId, billId);
  for (const r of rows) {
    await updateVisitRow(trx, r.id, { status: 'cancelled', updated_at: nowIso() });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'visit',
      entityId: r.id,
      oldValues: { status: r.status },
      newValues: { status: 'cancelled', reason },
    });
  }
}

async function requirePatient(db: Db, organizationId: number, patientId: number) {
  const patient = await findPatient(db, organizationId, patientId);
  if (!patient) throw new NotFoundError('Patient', patientId);
  return patient;
}

/** `doctorId`: a doctor limited to their own patients (results/scope.ts); another's answers 404. */
export async function listVisits(
  db: Db,
  organizationId: number,
  patientId: number,
  doctorId?: number,
): Promise<Visit[]> {
  await requirePatient(db, organizationId, patientId);
  await assertInScope(db, { doctorId }, patientId, 'Patient', patientId);
  return visitsOfPatient(db, organizationId, patientId);
}

export async function getVisit(db: Db, organizationId: number, id: number, doctorId?: number): Promise<Visit> {
  const visit = await findVisit(db, organizationId, id);
  if (!visit) throw new NotFoundError('Visit', id);
  await assertInScope(db, { doctorId }, visit.patient_id, 'Visit', id);
  return visit;
}

/** Books an appointment (status scheduled) with a doctor, today or later in the lab's calendar. */
export async function scheduleVisit(db: Db, actor: Actor, patientId: number, input: VisitCreate): Promise<Visit> {
  const doctorId = await doctorLimit(db, actor);
  const id = await db.transaction().execute(async (trx) => {
    await requirePatient(trx, actor.organizationId, patientId);
    await assertInScope(trx, { doctorId }, patientId, 'Patient', patientId);
    const doctor = await resolveDoctor(trx, actor.organizationId, input.doctor_id);
    const today = localDate(await organizationTimezone(trx, actor.organizationId));
    if (input.visit_date < today)
      throw ValidationError.field('visit_date', 'An appointment cannot be booked in the past');
    return insertNewVisit(trx, actor, {
      organization_id: actor.organizationId,
      patient_id: patientId,
      doctor_id: doctor.id,
      bill_id: null,
      visit_type: input.visit_type,
      status: 'scheduled',
      visit_date: input.visit_date,
      visit_time: input.visit_time ?? null,
      chief_complaint: input.chief_complaint ?? null,
    });
  });
  return getVisit(db, actor.organizationId, id);
}

const NOTE_FIELDS = ['chief_complaint', 'diagnosis', 'treatment', 'follow_up_date'] as const;

/**
 * Completes or cancels a visit and records findings. scheduled -> completed | cancelled; a cancelled
 * visit is closed (409) and a completed one cannot be cancelled (409); findings may be added to a
 * scheduled or completed visit.
 */
export async function updateVisit(db: Db, actor: Actor, id: number, input: VisitUpdate): Promise<Visit> {
  const doctorId = await doctorLimit(db, actor);
  await db.transaction().execute(async (trx) => {
    const before = await findVisitRow(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Visit', id);
    await assertInScope(trx, { doctorId }, before.patient_id, 'Visit', id);
    if (before.status === 'cancelled')
      throw new ConflictError(`Visit ${id} is cancelled and cannot be changed`, 'VISIT_CANCELLED');
    if (input.status === 'cancelled' && before.status === 'completed') {
      throw new ConflictError(`Visit ${id} is completed and cannot be cancelled`, 'ILLEGAL_VISIT_STATUS');
    }
    const followUp = input.follow_up_date;
    if (followUp && followUp < before.visit_date) {
      throw ValidationError.field('follow_up_date', 'The follow-up date cannot be before the visit date');
    }
    const patch: { status?: string } & Partial<Record<(typeof NOTE_FIELDS)[number], string | null>> = {};
    if (input.status !== undefined && input.status !== before.status) patch.status = input.status;
    for (const key of NOTE_FIELDS) {
      const value = input[key];
      if (value !== undefined && (value ?? null) !== before[key]) patch[key] = value ?? null;
    }
    if (!Object.keys(patch).length) return;
    const oldValues: Record<string, unknown> = {};
    for (const k of Object.keys(patch) as (keyof typeof patch)[]) oldValues[k] = before[k];
    await updateVisitRow(trx, id, { ...patch, updated_at: nowIso() });
    await writeAudit(trx, actor, { action: 'update', entity: 'visit', entityId: id, oldValues, newValues: patch });
  });
  return getVisit(db, actor.organizationId, id);
}
