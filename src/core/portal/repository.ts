import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { PatientPortalAccessTable, PortalSessionsTable } from './tables.js';

/**
 * SQL of the patient portal's own tables (PIN access and portal sessions) and of the patient's view
 * of results, samples and bill lines: always narrowed to one patient of one lab.
 */

export function portalAccessOf(db: Db, patientId: number, organizationId?: number) {
  let q = db.selectFrom('patient_portal_access').select('issued_at').where('patient_id', '=', patientId);
  if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId);
  return q.executeTakeFirst();
}

export async function upsertPortalAccess(trx: Db, values: Insertable<PatientPortalAccessTable>): Promise<void> {
  await trx
    .insertInto('patient_portal_access')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('patient_id')
        .doUpdateSet({ pin_hash: values.pin_hash, issued_by: values.issued_by, issued_at: values.issued_at }),
    )
    .execute();
}

/** Ends every portal session of a patient; how many there were. */
export async function endPortalSessionsOf(trx: Db, patientId: number): Promise<number> {
  const r = await trx.deleteFrom('portal_sessions').where('patient_id', '=', patientId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A patient's verified results, newest first, with the test name and the sample. */
export function verifiedResultsOfPatient(db: Db, organizationId: number, patientId: number) {
  return db
    .selectFrom('test_results as r')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .innerJoin('samples as sa', (j) => j.onRef('sa.id', '=', 'r.sample_id').onRef('sa.patient_id', '=', 'r.patient_id'))
    .select([
      'r.id',
      't.name as test_name',
      'r.result_value',
      'r.normal_range',
      'r.unit',
      'r.flag',
      'r.status',
      'r.notes',
      'r.verified_at',
      'r.created_at',
      'sa.id as sample_pk',
      'sa.sample_code',
      'sa.collection_date',
    ])
    .where('r.organization_id', '=', organizationId)
    .where('r.patient_id', '=', patientId)
    .where('r.status', '=', 'verified')
    .orderBy('r.verified_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}

/** The sample's code when it is this patient's and has at least one verified result. */
export function reportableSample(db: Db, organizationId: number, patientId: number, sampleId: number) {
  return db
    .selectFrom('samples as sa')
    .select('sa.sample_code')
    .where('sa.id', '=', sampleId)
    .where('sa.organization_id', '=', organizationId)
    .where('sa.patient_id', '=', patientId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('test_results as r')
          .select('r.id')
          .whereRef('r.sample_id', '=', 'sa.id')
          .where('r.status', '=', 'verified'),
      ),
    )
    .executeTakeFirst();
}

/** Which of these bills of the patient have a verified result on one of their samples (a visit report to show). */
export async function billsWithVerifiedResults(db: Db, organizationId: number, patientId: number, billIds: number[]) {
  if (!billIds.length) return new Set<number>();
  const rows = await db
    .selectFrom('samples as sa')
    .innerJoin('test_results as r', 'r.sample_id', 'sa.id')
    .select('sa.bill_id')
    .distinct()
    .where('sa.organization_id', '=', organizationId)
    .where('sa.patient_id', '=', patientId)
    .where('sa.bill_id', 'in', billIds)
    .where('r.status', '=', 'verified')
    .execute();
  return new Set(rows.map((r) => Number(r.bill_id)));
}

/** The lines of several bills, in bill and line order. */
export function linesOfBills(db: Db, billIds: number[]) {
  return db
    .selectFrom('bill_items')
    .select(['bill_id', 'name', 'qty', 'unit_price_paise', 'total_paise'])
    .where('bill_id', 'in', billIds)
    .orderBy('bill_id')
    .orderBy('position')
    .execute();
}

/** Every patient with portal access whose code (or merged code) matches (codes are unique per lab, not per install). */
export function portalCandidates(db: Db, patientCode: string) {
  return (
    db
      .selectFrom('patients as p')
      .innerJoin('patient_portal_access as a', (j) =>
        j.onRef('a.patient_id', '=', 'p.id').onRef('a.organization_id', '=', 'p.organization_id'),
      )
      .innerJoin('organizations as o', 'o.id', 'p.organization_id')
      .select(['p.id', 'p.organization_id', 'p.patient_code', 'p.phone', 'a.pin_hash', 'o.status as lab_status'])
      // A code merged into another patient signs in as the patient kept.
      .where((eb) =>
        eb.or([
          eb('p.patient_code', '=', patientCode),
          eb(
            'p.id',
            'in',
            eb.selectFrom('patient_aliases as al').select('al.patient_id').where('al.patient_code', '=', patientCode),
          ),
        ]),
      )
      .execute()
  );
}

/** Removes a patient's expired portal sessions. */
export async function deleteExpiredPortalSessions(trx: Db, patientId: number, nowIso: string): Promise<void> {
  await trx
    .deleteFrom('portal_sessions')
    .where('patient_id', '=', patientId)
    .where('expires_at', '<=', nowIso)
    .execute();
}

export async function insertPortalSession(trx: Db, values: Insertable<PortalSessionsTable>): Promise<void> {
  await trx.insertInto('portal_sessions').values(values).execute();
}

/** A portal session by its hashed id, with the patient's code and the status of their lab. */
export function findPortalSession(db: Db, sessionId: string) {
  return db
    .selectFrom('portal_sessions as s')
    .innerJoin('patients as p', (j) =>
      j.onRef('p.id', '=', 's.patient_id').onRef('p.organization_id', '=', 's.organization_id'),
    )
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select([
      's.id',
      's.patient_id',
      's.organization_id',
      's.expires_at',
      's.last_seen_at',
      'p.patient_code',
      'o.status as lab_status',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}

export async function deletePortalSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('id', '=', sessionId).execute();
}

export async function touchPortalSession(db: Db, sessionId: string, atIso: string): Promise<void> {
  await db.updateTable('portal_sessions').set({ last_seen_at: atIso }).where('id', '=', sessionId).execute();
}
