import { sql, type Insertable as KyselyInsertable, type Updateable } from 'kysely';
import { fixedQuery, rowsAsArrays, type Db } from '../db/connection.js';
import { rowsByKeys, statementsAreInProcess } from '../db/dialect.js';
import type { PatientsTable } from '../db/schema.js';
import { insertRows } from '../db/bulk.js';
import {
  indexNewPatients,
  type PrefixCounts,
  indexPatientWords,
  patientCount,
  patientSearch,
  searchTokens,
  unindexPatientWords,
} from '../db/patient-search.js';
import { PATIENT_DETAIL_FIELDS, type PatientListQuery } from '../../shared/schemas/patients.js';
import type { RangeQuery } from '../export/parallel-plan.js';

import type { PatientRow } from './mappers.js';
import './tables.js';
import { labRows } from '../db/joins.js';
import { labTable, labUpdate, labDelete } from '../db/lab-tables.js';
import type { RowsPage } from '../db/paging.js';

export type { PatientRow };
export { toPatient } from './mappers.js';

/** The look-ups of a patient and of list pages run on most requests, so they are compiled once (see fixedQuery). */
const patientById = fixedQuery((db, organizationId: number, id: number) =>
  labRows(db, 'patients', organizationId).where('id', '=', id),
);

/** A page of the lab's patient ids in id order, one way or the other (each compiled once). */
const idsInOrder = (direction: 'asc' | 'desc') =>
  fixedQuery((db, organizationId: number, limit: number, offset: number) =>
    labTable(db, 'patients', organizationId).select('id').orderBy('id', direction).limit(limit).offset(offset),
  );

const newestIds = idsInOrder('desc');
const oldestIds = idsInOrder('asc');

export function findPatient(db: Db, organizationId: number, id: number): Promise<PatientRow | undefined> {
  return patientById.first(db, organizationId, id);
}

/** A patient by code; a merged patient's code answers the patient kept. */
export async function findPatientByCode(db: Db, organizationId: number, code: string) {
  const own = await labRows(db, 'patients', organizationId)
    .where('patient_code', '=', code.toUpperCase())
    .executeTakeFirst();
  if (own) return own;
  return labRows(db, 'patients', organizationId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('patient_aliases')
        .select('patient_id')
        .where('organization_id', '=', organizationId)
        .where('patient_code', '=', code.toUpperCase()),
    )
    .executeTakeFirst();
}

/**
 * The rows of a page of ids, newest first. SQLite: one primary-key look-up each, on one compiled
 * statement (in-process, cheaper than planning an IN list). PostgreSQL: one statement, since each
 * look-up there is a round trip to the server.
 */
async function rowsByIds(db: Db, organizationId: number, ids: number[]): Promise<PatientRow[]> {
  if (!statementsAreInProcess(db)) {
    if (ids.length === 0) return [];
    return labRows(db, 'patients', organizationId).where('id', 'in', ids).orderBy('id', 'desc').execute();
  }
  const rows: PatientRow[] = [];
  for (const id of [...ids].sort((a, b) => b - a)) {
    const row = await patientById.first(db, organizationId, id);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * One page of patients, newest first, with an exact total.
 * - unfiltered: the total comes from a trigger-kept counter, the page from the (organization_id, id) index;
 *   pages past the middle are read from the other end so no scan skips more than half the rows;
 * - search: the FTS index gives both the count and the page of ids;
 * - gender/membership: their (organization_id, column, id) indexes.
 */
export async function pagePatients(
  db: Db,
  organizationId: number,
  q: PatientListQuery,
  doctorId?: number,
): Promise<RowsPage<PatientRow>> {
  const offset = (q.page - 1) * q.limit;
  const tokens = q.search ? searchTokens(q.search) : [];
  const filtered = q.gender !== undefined || q.membership !== undefined || doctorId !== undefined;

  if (tokens.length === 0 && q.search) return { rows: [], total: 0 };

  const match = tokens.length > 0 ? await patientSearch(db, organizationId, tokens) : null;

  if (match !== null && !filtered) {
    const total = await match.count();
    if (offset >= total) return { rows: [], total };
    return { rows: await match.rows(q.limit, offset), total };
  }

  if (match === null && !filtered) {
    const total = (await patientCount.first(db, organizationId))?.n ?? 0;
    if (offset >= total) return { rows: [], total };
    const fromEnd = offset > total / 2;
    const lastIndex = Math.min(offset + q.limit, total);
    const ids = fromEnd
      ? await oldestIds.all(db, organizationId, lastIndex - offset, total - lastIndex)
      : await newestIds.all(db, organizationId, q.limit, offset);
    return {
      rows: await rowsByIds(
        db,
        organizationId,
        ids.map((r) => r.id),
      ),
      total,
    };
  }

  let base = labTable(db, 'patients', organizationId);
  if (q.gender) base = base.where('gender', '=', q.gender);
  if (q.membership) base = base.where('membership_type', '=', q.membership);
  if (doctorId !== undefined) base = base.where('id', 'in', patientsOfDoctor(doctorId));
  if (match !== null) base = base.where(match.ids);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(n);
  if (offset >= total) return { rows: [], total };
  const rows = await base.selectAll().orderBy('id', 'desc').limit(q.limit).offset(offset).execute();
  return { rows, total };
}

type Insertable = KyselyInsertable<PatientsTable>;

export async function insertPatientRow(trx: Db, values: Insertable): Promise<PatientRow> {
  const row = await trx.insertInto('patients').values(values).returningAll().executeTakeFirstOrThrow();
  await indexPatientWords(trx, row);
  return row;
}

export async function updatePatientRow(
  trx: Db,
  organizationId: number,
  id: number,
  patch: Updateable<PatientsTable>,
): Promise<PatientRow> {
  const row = await labUpdate(trx, 'patients', organizationId)
    .set(patch)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await indexPatientWords(trx, row);
  return row;
}

export async function deletePatientRow(trx: Db, organizationId: number, id: number): Promise<void> {
  await unindexPatientWords(trx, organizationId, id);
  await labDelete(trx, 'patients', organizationId).where('id', '=', id).execute();
}

/** The export's keyset walk: up to `limit` patients with ids below `before`, newest first. */
export async function patientsBefore(
  db: Db,
  organizationId: number,
  before: number,
  limit: number,
  f: PatientExportWalk,
): Promise<PatientRow[]> {
  return (await patientsBeforeQuery(db, organizationId, before, limit, f)).selectAll().execute();
}

export type PatientExportWalk = {
  gender?: string;
  membership?: string;
  tokens: string[];
  createdFrom?: string;
  createdBefore?: string;
};

async function patientsBeforeQuery(
  db: Db,
  organizationId: number,
  before: number,
  limit: number,
  f: PatientExportWalk,
) {
  return (await patientsFiltered(db, organizationId, f)).where('id', '<', before).orderBy('id', 'desc').limit(limit);
}

/** The lab's patients the export's filters keep. */
async function patientsFiltered(db: Db, organizationId: number, f: PatientExportWalk) {
  let q = labTable(db, 'patients', organizationId);
  if (f.gender) q = q.where('gender', '=', f.gender);
  if (f.createdFrom) q = q.where('created_at', '>=', f.createdFrom);
  if (f.createdBefore) q = q.where('created_at', '<', f.createdBefore);
  if (f.membership) q = q.where('membership_type', '=', f.membership);
  if (f.tokens.length) q = q.where((await patientSearch(db, organizationId, f.tokens)).ids);
  return q;
}

const HI = '\u0000range-hi\u0000';
const LO = '\u0000range-lo\u0000';

function rangeQuery(compiled: { sql: string; parameters: readonly unknown[] }): RangeQuery {
  const hiAt = compiled.parameters.indexOf(HI);
  const loAt = compiled.parameters.indexOf(LO);
  if (hiAt < 0 || loAt < 0) throw new Error(`rangeQuery: the bounds are not parameters of ${compiled.sql}`);
  return { sql: compiled.sql, parameters: [...compiled.parameters], hiAt, loAt };
}

/**
 * The export's walk cut into id ranges, for the parallel export (src/core/transfer/parallel.ts):
 * `rows` reads the patients of one range (ids below hi, at or above lo) with the filters, newest
 * first, each as its values in the order of `selection` with the id after them (as
 * patientArrayWalk); `step` answers the id `offset` rows below hi among all the lab's patients (the
 * (organization_id, id) index only, so the ranges are found without reading the rows; lo in the
 * `step` query is unused and kept at its lowest).
 */
export async function patientArrayRanges(
  db: Db,
  organizationId: number,
  f: PatientExportWalk,
  selection: readonly ExportSelection[],
): Promise<{ rows: RangeQuery; step: RangeQuery & { offsetAt: number } }> {
  const base = (await patientsFiltered(db, organizationId, f))
    .where('id', '<', sql<number>`${HI}`)
    .where('id', '>=', sql<number>`${LO}`)
    .orderBy('id', 'desc');
  const rows = base.select((eb) => [
    ...selection.map((s, i) =>
      'column' in s ? eb.ref(s.column).as(`c${i}`) : sql<string>`${sql.lit(s.constant)}`.as(`c${i}`),
    ),
    eb.ref('id').as('id'),
  ]);
  const OFFSET = '\u0000range-offset\u0000';
  const step = labTable(db, 'patients', organizationId)
    .select('id')
    .where('id', '<', sql<number>`${HI}`)
    .where('id', '>=', sql<number>`${LO}`)
    .orderBy('id', 'desc')
    .limit(1)
    .offset(sql<number>`${OFFSET}`)
    .compile();
  return { rows: rangeQuery(rows.compile()), step: { ...rangeQuery(step), offsetAt: step.parameters.indexOf(OFFSET) } };
}

/** One value of an export row: a stored column, or a constant the database writes in. */
export type ExportSelection = { column: keyof PatientRow } | { constant: string };

/** Where a walk starts: above every id. */
export const WALK_START = Number.MAX_SAFE_INTEGER;

/**
 * The same walk as patientsBefore, each row as its values in the order of `selection`, with the
 * patient's id after them (the next page starts below it): for exports. The query is built and
 * compiled once; the answer reads the page of patients below `before` (WALK_START for the first).
 */
export async function patientArrayWalk(
  db: Db,
  organizationId: number,
  limit: number,
  f: PatientExportWalk,
  selection: readonly ExportSelection[],
): Promise<(before: number) => Promise<unknown[][]>> {
  const query = (await patientsBeforeQuery(db, organizationId, WALK_START, limit, f)).select((eb) => [
    ...selection.map((s, i) =>
      'column' in s ? eb.ref(s.column).as(`c${i}`) : sql<string>`${sql.lit(s.constant)}`.as(`c${i}`),
    ),
    eb.ref('id').as('id'),
  ]);
  const compiled = query.compile();
  // Pages differ only in the `before` parameter (a million-row export is a thousand pages).
  const at = compiled.parameters.indexOf(WALK_START);
  return (before) =>
    rowsAsArrays(db, {
      compile: () => ({ ...compiled, parameters: compiled.parameters.map((p, i) => (i === at ? before : p)) }),
    });
}

/** The columns an import writes, in order (patients' own columns but the id). */
export const PATIENT_INSERT_COLUMNS = [
  'organization_id',
  'patient_code',
  'title',
  'first_name',
  'last_name',
  'date_of_birth',
  'dob_estimated',
  'gender',
  'phone',
  'email',
  'address',
  ...PATIENT_DETAIL_FIELDS,
  'legacy_id',
  'membership_type',
  'created_by',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Insertable)[];

export type PatientInsertRow = { [K in (typeof PATIENT_INSERT_COLUMNS)[number]]-?: Exclude<Insertable[K], undefined> };

/** Many new patients in multi-row INSERTs (an import's batch), search-indexed; answers each one's id by code. */
export async function insertPatientRows(
  trx: Db,
  rows: readonly PatientInsertRow[],
  prefixesLater?: PrefixCounts,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (!rows.length) return ids;
  const returned = await insertRows<{ id: number; patient_code: string }>(
    trx,
    'patients',
    PATIENT_INSERT_COLUMNS,
    rows.map((r) => PATIENT_INSERT_COLUMNS.map((c) => r[c] ?? null)),
    ['id', 'patient_code'],
  );
  for (const r of returned) ids.set(r.patient_code, Number(r.id));
  // SQLite's triggers index the rows as they go in; PostgreSQL's words are written here.
  await indexNewPatients(
    trx,
    rows.map((r) => ({ ...r, id: ids.get(r.patient_code)!, organization_id: r.organization_id })),
    prefixesLater,
  );
  return ids;
}

/** The lab's patients with these codes (upper-case), by code. */
export async function patientsByCodes(
  db: Db,
  organizationId: number,
  codes: readonly string[],
): Promise<Map<string, PatientRow>> {
  const rows = await rowsByKeys(codes, (some) =>
    labRows(db, 'patients', organizationId).where('patient_code', 'in', some).execute(),
  );
  return new Map(rows.map((r) => [r.patient_code, r]));
}

/** The patients a doctor may see when the lab limits doctors to their own: visits or bills that name them. */
export function patientsOfDoctor(doctorId: number) {
  return sql<number>`(SELECT v.patient_id FROM visits v WHERE v.doctor_id = ${doctorId}
    UNION SELECT b.patient_id FROM bills b WHERE b.doctor_id = ${doctorId})`;
}

export async function isPatientOfDoctor(db: Db, doctorId: number, patientId: number): Promise<boolean> {
  const row = await db
    .selectNoFrom(sql<number>`CASE WHEN ${patientId} IN ${patientsOfDoctor(doctorId)} THEN 1 ELSE 0 END`.as('ok'))
    .executeTakeFirstOrThrow();
  return Number(row.ok) === 1;
}
