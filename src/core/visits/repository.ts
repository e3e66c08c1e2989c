import type { Insertable, Selectable, Updateable } from 'kysely';
import type { VisitsTable } from './tables.js';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Visit } from '../../shared/schemas/history.js';
import { labTable } from '../db/lab-tables.js';
import { labRows } from '../db/joins.js';

/** A lab's visits with the doctor (name, specialization) and the bill they came from. */
export function visitsQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('visits as v')
    .leftJoin('users as d', 'd.id', 'v.doctor_id')
    .leftJoin('bills as b', 'b.id', 'v.bill_id')
    .where('v.organization_id', '=', organizationId)
    .selectAll('v')
    .select([
      sql<string | null>`CASE WHEN d.id IS NULL THEN NULL ELSE d.first_name || ' ' || d.last_name END`.as(
        'doctor_name',
      ),
      'd.specialization as doctor_specialization',
      'b.bill_number as bill_number',
    ]);
}

export type VisitRow = Awaited<ReturnType<ReturnType<typeof visitsQuery>['executeTakeFirstOrThrow']>>;

export function toVisit(r: VisitRow): Visit {
  return {
    id: r.id,
    patient_id: r.patient_id,
    visit_type: r.visit_type,
    status: r.status,
    visit_date: r.visit_date,
    visit_time: r.visit_time,
    doctor_id: r.doctor_id,
    doctor_name: r.doctor_name,
    doctor_specialization: r.doctor_specialization,
    chief_complaint: r.chief_complaint,
    diagnosis: r.diagnosis,
    treatment: r.treatment,
    follow_up_date: r.follow_up_date,
    bill_id: r.bill_id,
    bill_number: r.bill_number,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A patient's visits, newest first (date, then time, then the order they were booked). */
export async function visitsOfPatient(db: Db, organizationId: number, patientId: number): Promise<Visit[]> {
  const rows = await visitsQuery(db, organizationId)
    .where('v.patient_id', '=', patientId)
    .orderBy('v.visit_date', 'desc')
    .orderBy(sql`coalesce(v.visit_time, '')`, 'desc')
    .orderBy('v.id', 'desc')
    .execute();
  return rows.map(toVisit);
}

export async function findVisit(db: Db, organizationId: number, id: number): Promise<Visit | undefined> {
  const row = await visitsQuery(db, organizationId).where('v.id', '=', id).executeTakeFirst();
  return row ? toVisit(row) : undefined;
}

export function insertVisitRow(trx: Db, values: Insertable<VisitsTable>): Promise<Selectable<VisitsTable>> {
  return trx.insertInto('visits').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateVisitRow(trx: Db, id: number, patch: Updateable<VisitsTable>): Promise<void> {
  await trx.updateTable('visits').set(patch).where('id', '=', id).execute();
}

/** The visit's own row (not the joined API view), for the checks of an update. */
export function findVisitRow(db: Db, organizationId: number, id: number): Promise<Selectable<VisitsTable> | undefined> {
  return labRows(db, 'visits', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Visits a bill stands for that are not cancelled yet. */
export function openVisitsOfBill(db: Db, organizationId: number, billId: number) {
  return labTable(db, 'visits', organizationId)
    .select(['id', 'status'])
    .where('bill_id', '=', billId)
    .where('status', '!=', 'cancelled')
    .execute();
}
