import { countedCsv, csvHeader, csvRows } from '../export/csv.js';
import type { Db } from '../db/connection.js';
import { searchTokens } from '../db/patient-search.js';
import type { PatientListQuery } from '../../shared/schemas/patients.js';
import {
  patientArrayRanges,
  patientArrayWalk,
  patientsBefore,
  WALK_START,
  type ExportSelection,
} from './repository.js';
import type { ParallelExportPlan } from '../export/parallel-plan.js';
import { finishPatientRow } from './export-row.js';
import { toPatient } from './mappers.js';
import { PATIENT_DETAIL_FIELDS, type Patient } from '../../shared/schemas/patients.js';
import { labToday } from '../settings/service.js';
import { writeAudit } from '../audit/audit.js';
import type { Actor } from '../context.js';

/** The columns of the patients CSV (the UI's download and `lims export patients`), in order. */
export const PATIENT_CSV_COLUMNS = [
  'patient_id',
  'first_name',
  'last_name',
  'date_of_birth',
  'age',
  'gender',
  'phone',
  'email',
  'address',
  ...PATIENT_DETAIL_FIELDS,
  'membership_type',
  'status',
  'created_at',
  // Last, so a reader of the earlier columns by position is not disturbed (an export
  // re-imports without losing the title or that a birth date was estimated from an age).
  'title',
  'dob_estimated',
  'legacy_id',
] as const satisfies readonly (keyof Patient)[];

const CHUNK = 1000;

/**
 * Every patient matching the filters, newest first, in pages of API objects. Walks the
 * (organization_id, id) index by keyset, so memory stays flat for any number of rows.
 */
export async function* patientPages(
  db: Db,
  organizationId: number,
  f: PatientExportFilters,
): AsyncGenerator<Patient[]> {
  const tokens = f.search ? searchTokens(f.search) : [];
  if (f.search && tokens.length === 0) return;
  let before = Number.MAX_SAFE_INTEGER;
  const today = await labToday(db, organizationId);
  for (;;) {
    const rows = await patientsBefore(db, organizationId, before, CHUNK, { ...f, tokens });
    if (!rows.length) return;
    yield rows.map((r) => toPatient(r, today));
    before = rows[rows.length - 1]!.id;
    if (rows.length < CHUNK) return;
  }
}

/**
 * What the database reads for each CSV column, in order: the stored column, the birth date where
 * the age goes (counted in place below, as toPatient counts it), the constant status. The array walk
 * must give what toPatient gives; test/api/patients-export.test.ts compares the two.
 */
const ARRAY_SELECTION: readonly ExportSelection[] = PATIENT_CSV_COLUMNS.map((c) =>
  c === 'patient_id'
    ? { column: 'patient_code' }
    : c === 'age'
      ? { column: 'date_of_birth' }
      : c === 'status'
        ? { constant: 'active' }
        : { column: c },
);
const AGE = PATIENT_CSV_COLUMNS.indexOf('age');
const ESTIMATED = PATIENT_CSV_COLUMNS.indexOf('dob_estimated');

/**
 * The same patients as patientPages, each as the values of PATIENT_CSV_COLUMNS in order (and the
 * id after them), without an object per row: exporting a million patients (the target of 200,000
 * rows a second) spent most of its time making objects. The database's row arrays are completed
 * in place: the age from the birth date, dob_estimated as true or false.
 */
export async function* patientArrayPages(
  db: Db,
  organizationId: number,
  f: PatientExportFilters,
): AsyncGenerator<unknown[][]> {
  const tokens = f.search ? searchTokens(f.search) : [];
  if (f.search && tokens.length === 0) return;
  let before = WALK_START;
  const today = await labToday(db, organizationId);
  const id = ARRAY_SELECTION.length;
  const pageBelow = await patientArrayWalk(db, organizationId, CHUNK, { ...f, tokens }, ARRAY_SELECTION);
  for (;;) {
    const rows = await pageBelow(before);
    if (!rows.length) return;
    for (const row of rows) finishPatientRow(row, today, AGE, ESTIMATED);
    // Read before the page is handed on: a reader may drop the id from the rows.
    before = rows[rows.length - 1]![id] as number;
    const last = rows.length < CHUNK;
    yield rows;
    if (last) return;
  }
}

/**
 * The same walk cut into id ranges for the parallel export (src/core/transfer/parallel.ts): each
 * range's rows in PATIENT_CSV_COLUMNS order (and the id), completed by finishPatientRow in the
 * worker. Null when the search has no words (nothing to export, as patientArrayPages).
 */
export async function patientParallelPlan(
  db: Db,
  organizationId: number,
  f: PatientExportFilters,
): Promise<ParallelExportPlan | null> {
  const tokens = f.search ? searchTokens(f.search) : [];
  if (f.search && tokens.length === 0) return null;
  const { rows, step } = await patientArrayRanges(db, organizationId, { ...f, tokens }, ARRAY_SELECTION);
  return {
    rows,
    step,
    finish: { kind: 'patients', today: await labToday(db, organizationId), age: AGE, estimated: ESTIMATED },
  };
}

/** Every patient matching the list filters, newest first, as CSV text chunks (header first). */
export async function* patientsCsv(db: Db, organizationId: number, f: PatientExportFilters): AsyncGenerator<string> {
  yield csvHeader(PATIENT_CSV_COLUMNS);
  for await (const page of patientArrayPages(db, organizationId, f)) {
    for (const row of page) row.length = PATIENT_CSV_COLUMNS.length;
    yield csvRows(page as Parameters<typeof csvRows>[0]);
  }
}

export type PatientExportFilters = Pick<PatientListQuery, 'search' | 'gender' | 'membership'> & {
  /** Registered at or after / before these instants (ISO, UTC): `lims export patients --from --to`. */
  createdFrom?: string;
  createdBefore?: string;
};

/** The All Patients export: the CSV chunks, recorded in the audit trail with who, which filters and how many rows. */
export async function exportPatientsCsv(
  db: Db,
  actor: Actor,
  f: PatientExportFilters,
): Promise<AsyncGenerator<string>> {
  const filters = { search: f.search ?? null, gender: f.gender ?? null, membership: f.membership ?? null };
  return countedCsv(patientsCsv(db, actor.organizationId, f), (rows, complete) =>
    writeAudit(db, actor, {
      action: 'export',
      entity: 'patient',
      newValues: { format: 'csv', ...filters, rows, complete },
    }),
  );
}
