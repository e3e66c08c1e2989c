import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../db/connection.js';
import { type ResultListQuery } from '../../shared/schemas/results.js';
import { patientsOfDoctor } from '../patients/repository.js';
import { resultsWithPatient } from '../db/joins.js';
import { onPage, type RowsPage } from '../db/paging.js';

/** The list's filters, and the doctor whose patients alone are shown (src/core/results/scope.ts). */
export type ResultFilter = Partial<ResultListQuery> & { doctor_id?: number };

/**
 * The results list is a union of two row sources with the same columns:
 *   entered  - rows of test_results;
 *   awaiting - tests ordered on a collected or processing sample that have no result yet
 *              (the worklist: shown as status "pending" with id null).
 * Both are filtered the same way, so paging, totals and the summary agree.
 */

/** Samples whose ordered tests can still receive results. */
export const OPEN_FOR_ENTRY = ['collected', 'processing'] as const;

export interface ListRow {
  id: number | null;
  sample_id: number;
  test_id: number;
  patient_id: number;
  first_name: string;
  last_name: string;
  patient_number: string;
  test_name: string;
  test_code: string;
  sample_number: string;
  sample_barcode: string | null;
  sample_bill_id: number | null;
  sample_status: string;
  result_value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  status: string;
  is_critical: number;
  review_required: number;
  amended: number;
  notes: string | null;
  rejection_reason: string | null;
  priority: string;
  technician_id: number | null;
  technician_name: string | null;
  entered_at: string | null;
  verified_by: number | null;
  verified_by_name: string | null;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
  /** Only on awaiting rows (to pick the range for the patient); null on entered rows. */
  reference_ranges: string | null;
  patient_gender: string | null;
  patient_dob: string | null;
  collection_date: string | null;
  delta_failed: number;
  previous_value: string | null;
  previous_at: string | null;
  calculated: number;
  equipment_id: number | null;
  equipment_warning: string | null;
  structured_value: string | null;
  previous_verifier: string | null;
  autoverified_by: string | null;
}

function enteredBase(db: Db, organizationId: number) {
  return resultsWithPatient(db, organizationId)
    .leftJoin('users as tu', 'tu.id', 'r.technician_id')
    .leftJoin('users as vu', 'vu.id', 'r.verified_by');
}

/**
 * The list's columns in one order, each as the entered source (test_results) and the awaiting one
 * (an ordered test with no result yet) read it: a UNION pairs columns by place, so both sides are
 * built from this one list. The texts are constant SQL, never input.
 */
const LIST_COLUMNS: Record<keyof ListRow, [entered: string, awaiting: string]> = {
  id: ['r.id', 'NULL'],
  sample_id: ['r.sample_id', 'st.sample_id'],
  test_id: ['r.test_id', 'st.test_id'],
  patient_id: ['r.patient_id', 's.patient_id'],
  first_name: ['p.first_name', 'p.first_name'],
  last_name: ['p.last_name', 'p.last_name'],
  patient_number: ['p.patient_code', 'p.patient_code'],
  test_name: ['t.name', 't.name'],
  test_code: ['t.code', 't.code'],
  sample_number: ['s.sample_code', 's.sample_code'],
  sample_barcode: ['s.barcode', 's.barcode'],
  sample_bill_id: ['s.bill_id', 's.bill_id'],
  sample_status: ['s.status', 's.status'],
  result_value: ['r.result_value', 'NULL'],
  unit: ['r.unit', 't.unit'],
  normal_range: ['r.normal_range', 't.normal_range'],
  flag: ['r.flag', 'NULL'],
  status: ['r.status', `'pending'`],
  is_critical: ['r.is_critical', '0'],
  review_required: ['r.review_required', '0'],
  amended: ['r.amended', '0'],
  notes: ['r.notes', 'NULL'],
  rejection_reason: ['r.rejection_reason', 'NULL'],
  priority: ['s.priority', 's.priority'],
  technician_id: ['r.technician_id', 'NULL'],
  technician_name: [`(tu.first_name || ' ' || tu.last_name)`, 'NULL'],
  entered_at: ['r.entered_at', 'NULL'],
  verified_by: ['r.verified_by', 'NULL'],
  verified_by_name: [`(vu.first_name || ' ' || vu.last_name)`, 'NULL'],
  verified_at: ['r.verified_at', 'NULL'],
  created_at: ['r.created_at', 'coalesce(s.collection_date, s.created_at)'],
  updated_at: ['r.updated_at', 's.updated_at'],
  reference_ranges: ['NULL', 't.reference_ranges'],
  patient_gender: ['NULL', 'p.gender'],
  patient_dob: ['NULL', 'p.date_of_birth'],
  collection_date: ['s.collection_date', 's.collection_date'],
  delta_failed: ['r.delta_failed', '0'],
  previous_value: ['r.previous_value', 'NULL'],
  previous_at: ['r.previous_at', 'NULL'],
  calculated: ['r.calculated', '0'],
  equipment_id: ['r.equipment_id', 'NULL'],
  equipment_warning: ['r.equipment_warning', 'NULL'],
  structured_value: ['r.structured_value', 'NULL'],
  previous_verifier: ['r.previous_verifier', 'NULL'],
  autoverified_by: ['r.autoverified_by', 'NULL'],
};

const listColumns = (side: 0 | 1) =>
  (Object.keys(LIST_COLUMNS) as (keyof ListRow)[]).map((name) =>
    sql.raw<ListRow[typeof name]>(LIST_COLUMNS[name][side]).as(name),
  );

function enteredSelect(q: ReturnType<typeof enteredBase>) {
  return q.select(listColumns(0));
}

export function awaitingBase(db: Db, organizationId: number) {
  return db
    .selectFrom('sample_tests as st')
    .innerJoin('samples as s', 's.id', 'st.sample_id')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .where('s.organization_id', '=', organizationId)
    .where('s.status', 'in', OPEN_FOR_ENTRY)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('test_results as r2')
            .select('r2.id')
            .whereRef('r2.sample_id', '=', 'st.sample_id')
            .whereRef('r2.test_id', '=', 'st.test_id'),
        ),
      ),
    );
}

function awaitingSelect(q: ReturnType<typeof awaitingBase>) {
  return q.select(listColumns(1));
}

/** Which sources a status/validation/critical filter can match, and the conditions on entered rows. */
function plan(f: ResultFilter) {
  const entered: Expression<SqlBool>[] = [];
  let awaiting = true;
  let includeEntered = true;
  if (f.status === 'pending') {
    entered.push(sql<SqlBool>`r.status = 'pending'`);
  } else if (f.status === 'abnormal') {
    awaiting = false;
    entered.push(sql<SqlBool>`r.flag IN ('low', 'high', 'abnormal')`);
  } else if (f.status) {
    awaiting = false;
    entered.push(sql<SqlBool>`r.status = ${f.status}`);
  }
  if (f.validation) {
    awaiting = false;
    const cond = {
      awaiting: sql<SqlBool>`r.status = 'completed'`,
      pending: sql<SqlBool>`(r.status = 'completed' AND r.review_required = 0)`,
      review_required: sql<SqlBool>`(r.status = 'completed' AND r.review_required = 1)`,
      validated: sql<SqlBool>`r.status = 'verified'`,
      rejected: sql<SqlBool>`r.status = 'rejected'`,
    }[f.validation];
    entered.push(cond);
  }
  if (f.critical === 'true') {
    awaiting = false;
    entered.push(sql<SqlBool>`r.is_critical = 1`);
  } else if (f.critical === 'false') {
    entered.push(sql<SqlBool>`r.is_critical = 0`);
  }
  if (f.critical_call) {
    awaiting = false;
    const called = sql<SqlBool>`EXISTS (SELECT 1 FROM critical_calls c WHERE c.result_id = r.id)`;
    entered.push(sql<SqlBool>`r.is_critical = 1`);
    entered.push(f.critical_call === 'logged' ? called : sql<SqlBool>`NOT ${called}`);
  }
  if (f.entered === 'true') awaiting = false;
  if (f.status === 'pending' && f.validation) includeEntered = false;
  return { entered, awaiting, includeEntered };
}

/** Conditions shared by both sources: sample, priority and the text search. */
function common(f: ResultFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (f.doctor_id) out.push(sql<SqlBool>`p.id IN ${patientsOfDoctor(f.doctor_id)}`);
  if (f.sample_id) out.push(sql<SqlBool>`s.id = ${f.sample_id}`);
  if (f.priority) out.push(sql<SqlBool>`s.priority = ${f.priority}`);
  if (f.search) {
    const s = `%${f.search.toLowerCase()}%`;
    out.push(sql<SqlBool>`(
      lower(p.first_name || ' ' || p.last_name) LIKE ${s}
      OR lower(p.last_name || ' ' || p.first_name) LIKE ${s}
      OR lower(p.patient_code) LIKE ${s}
      OR lower(t.name) LIKE ${s}
      OR lower(t.code) LIKE ${s}
      OR lower(s.sample_code) LIKE ${s}
      OR lower(coalesce(s.barcode, '')) LIKE ${s}
    )`);
  }
  return out;
}

function unionFor(db: Db, organizationId: number, f: ResultFilter) {
  const p = plan(f);
  const shared = common(f);
  let e = enteredBase(db, organizationId);
  for (const c of [...shared, ...p.entered]) e = e.where(c);
  let a = awaitingBase(db, organizationId);
  for (const c of shared) a = a.where(c);
  const enteredQ = enteredSelect(e);
  const awaitingQ = awaitingSelect(a);
  if (p.includeEntered && p.awaiting) return enteredQ.unionAll(awaitingQ);
  if (p.awaiting) return awaitingQ;
  if (p.includeEntered) return enteredQ;
  return enteredQ.where(sql<SqlBool>`1 = 0`);
}

export async function pageResults(
  db: Db,
  organizationId: number,
  f: ResultListQuery & ResultFilter,
): Promise<RowsPage<ListRow>> {
  const u = unionFor(db, organizationId, f).as('u');
  const { n } = await db
    .selectFrom(u)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await newestFirst(db, organizationId, f).$call(onPage(f)).execute();
  return { rows: rows as ListRow[], total: Number(n) };
}

/** Every row matching the filters, newest first (the validation queue export). */
export async function allResults(db: Db, organizationId: number, f: ResultFilter, max = 100_000): Promise<ListRow[]> {
  const rows = await newestFirst(db, organizationId, f).limit(max).execute();
  return rows as ListRow[];
}

/** The rows matching the filters in the order the queue lists them: newest first. */
function newestFirst(db: Db, organizationId: number, f: ResultFilter) {
  return db
    .selectFrom(unionFor(db, organizationId, f).as('u'))
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('sample_id', 'desc')
    .orderBy('test_id', 'desc');
}

export async function findResultRow(db: Db, organizationId: number, id: number): Promise<ListRow | undefined> {
  return (await enteredSelect(enteredBase(db, organizationId).where('r.id', '=', id)).executeTakeFirst()) as
    ListRow | undefined;
}

export async function resultRowsOfSample(db: Db, organizationId: number, sampleId: number): Promise<ListRow[]> {
  return (await enteredSelect(enteredBase(db, organizationId).where('r.sample_id', '=', sampleId))
    .orderBy('r.id')
    .execute()) as ListRow[];
}
