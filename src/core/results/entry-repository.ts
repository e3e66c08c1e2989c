import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { CriticalCallsTable, ResultAmendmentsTable, TestResultsTable } from './tables.js';
import { labRows, PATIENT_OF_SAMPLE, resultsWithSampleAndTest, samplesWithPatient } from '../db/joins.js';

/**
 * SQL of result entry, calculation, verification, critical calls and sample completion (the list
 * and read queries are in repository.ts). Functions take the executor they run on: a transaction
 * when the caller holds one.
 */

export type ResultRow = Selectable<TestResultsTable>;

/** What a test says about its results (type, decimals, limits, formula, delta rule). */
const RULES = [
  't.id',
  't.name',
  't.code',
  't.unit',
  't.normal_range',
  't.reference_ranges',
  't.result_type',
  't.result_template',
  't.decimals',
  't.plausible_low',
  't.plausible_high',
  't.critical_low',
  't.critical_high',
  't.choices',
  't.formula',
  't.delta_limit',
  't.delta_kind',
  't.delta_window_days',
] as const;

export function testRules(db: Db, testId: number) {
  return db.selectFrom('tests as t').select(RULES).where('t.id', '=', testId).executeTakeFirstOrThrow();
}
export type TestRules = Awaited<ReturnType<typeof testRules>>;

/** The tests ordered on a sample, in order, with their rules. */
export function orderedTests(db: Db, sampleId: number): Promise<TestRules[]> {
  return db
    .selectFrom('sample_tests as st')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(RULES)
    .where('st.sample_id', '=', sampleId)
    .orderBy('st.position')
    .execute();
}

/** The sample with its patient, as result entry and the entry sheet need it. */
export function sampleForEntry(db: Db, organizationId: number, sampleId: number) {
  return samplesWithPatient(db, organizationId)
    .select([
      's.id',
      's.sample_code',
      's.barcode',
      's.status',
      's.sample_type',
      's.priority',
      's.collection_date',
      's.location',
      's.patient_id',
      ...PATIENT_OF_SAMPLE,
    ])
    .where('s.id', '=', sampleId)
    .executeTakeFirst();
}

export function patientForRange(db: Db, patientId: number) {
  return db
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['p.gender', 'p.date_of_birth', 'o.timezone'])
    .where('p.id', '=', patientId)
    .executeTakeFirstOrThrow();
}

export function ownResultRow(db: Db, organizationId: number, id: number): Promise<ResultRow | undefined> {
  return labRows(db, 'test_results', organizationId).where('id', '=', id).executeTakeFirst();
}

export function resultOf(db: Db, sampleId: number, testId: number): Promise<ResultRow | undefined> {
  return db
    .selectFrom('test_results')
    .selectAll()
    .where('sample_id', '=', sampleId)
    .where('test_id', '=', testId)
    .executeTakeFirst();
}

export function resultsOfSample(db: Db, sampleId: number): Promise<ResultRow[]> {
  return db.selectFrom('test_results').selectAll().where('sample_id', '=', sampleId).orderBy('id').execute();
}

/** The patient's latest verified result of this test on another sample, for the delta check. */
export function previousResult(db: Db, patientId: number, testId: number, sampleId: number) {
  return db
    .selectFrom('test_results')
    .select(['result_value', 'verified_at'])
    .where('patient_id', '=', patientId)
    .where('test_id', '=', testId)
    .where('sample_id', '!=', sampleId)
    .where('status', '=', 'verified')
    .orderBy('verified_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function insertResultRow(db: Db, values: Insertable<TestResultsTable>): Promise<ResultRow> {
  return db.insertInto('test_results').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateResultRow(db: Db, id: number, patch: Updateable<TestResultsTable>): Promise<void> {
  await db.updateTable('test_results').set(patch).where('id', '=', id).execute();
}

export async function deleteResultRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('test_results').where('id', '=', id).execute();
}

export async function insertAmendment(db: Db, values: Insertable<ResultAmendmentsTable>): Promise<void> {
  await db.insertInto('result_amendments').values(values).execute();
}

export function resultForVerification(db: Db, organizationId: number, id: number) {
  return resultsWithSampleAndTest(db, organizationId)
    .select([
      'r.id',
      'r.status',
      'r.sample_id',
      'r.test_id',
      'r.technician_id',
      'r.verified_by',
      'r.verified_at',
      'r.flag',
      'r.is_critical',
      'r.delta_failed',
      'r.amended',
      'r.result_value',
      'r.unit',
      'r.entered_at',
      'r.equipment_id',
      't.name as test_name',
      's.status as sample_status',
      's.sample_code',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
}

export async function insertCriticalCall(db: Db, values: Insertable<CriticalCallsTable>): Promise<void> {
  await db.insertInto('critical_calls').values(values).execute();
}

/** Critical results of a sample that are verified or entered but have no call logged. */
export function uncalledCriticals(db: Db, sampleId: number) {
  return db
    .selectFrom('test_results as r')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .select(['r.id', 't.name', 'r.result_value', 'r.unit'])
    .where('r.sample_id', '=', sampleId)
    .where('r.is_critical', '=', 1)
    .where('r.status', 'in', ['completed', 'verified'])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('critical_calls as c').select('c.id').whereRef('c.result_id', '=', 'r.id'))),
    )
    .orderBy('r.id')
    .execute();
}

/** The report's head: sample, patient, the bill's doctor and what is still due on the bill. */
export function reportHead(db: Db, organizationId: number, sampleId: number) {
  return samplesWithPatient(db, organizationId)
    .leftJoin('bills as b', 'b.id', 's.bill_id')
    .leftJoin('users as d', 'd.id', 'b.doctor_id')
    .select([
      's.id',
      's.organization_id',
      's.sample_code',
      's.barcode',
      's.sample_type',
      's.status',
      's.collection_date',
      's.created_at',
      's.reported_at',
      's.released_at',
      's.receipt_condition',
      's.patient_id',
      ...PATIENT_OF_SAMPLE,
      'p.phone',
      'd.title as doctor_title',
      'd.first_name as doctor_first_name',
      'd.last_name as doctor_last_name',
      'b.bill_number',
      'b.cancelled_at as bill_cancelled_at',
      'b.final_amount_paise',
      'b.paid_paise',
    ])
    .where('s.id', '=', sampleId)
    .executeTakeFirst();
}

/** Counts one more print or download of a sample's report; the new count. */
export async function countReportPrint(db: Db, sampleId: number): Promise<number> {
  const r = await db
    .updateTable('samples')
    .set((eb) => ({ report_print_count: eb('report_print_count', '+', 1) }))
    .where('id', '=', sampleId)
    .returning('report_print_count')
    .executeTakeFirstOrThrow();
  return r.report_print_count;
}

export interface CallRow {
  result_id: number;
  called_to: string;
  called_at: string;
  read_back: number;
  notes: string | null;
  recorded_by_name: string | null;
}

/** The latest call of each critical result given. */
export async function callsOf(db: Db, resultIds: number[]): Promise<Map<number, CallRow>> {
  const m = new Map<number, CallRow>();
  if (!resultIds.length) return m;
  const rows = await db
    .selectFrom('critical_calls')
    .select(['result_id', 'called_to', 'called_at', 'read_back', 'notes', 'recorded_by_name'])
    .where('result_id', 'in', resultIds)
    .orderBy('id')
    .execute();
  for (const r of rows) m.set(r.result_id, r);
  return m;
}
