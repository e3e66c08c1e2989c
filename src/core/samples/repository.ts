import { minutesBetween } from '../db/dialect.js';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { CollectionLocationsTable, SampleStatusHistoryTable, SamplesTable } from './tables.js';
import type { Db } from '../db/connection.js';
import { labRows, samplesWithPatient } from '../db/joins.js';
import type { Sample, SampleHistoryEntry, SampleListQuery, SampleTestRef } from '../../shared/schemas/samples.js';
import { DEFAULT_COLLECTION_LOCATIONS, sampleEta } from '../../shared/samples.js';
import { labTable } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

export function samplesQuery(db: Db, organizationId: number) {
  return samplesWithPatient(db, organizationId)
    .leftJoin('users as c', 'c.id', 's.collector_id')
    .leftJoin('bills as b', 'b.id', 's.bill_id')
    .leftJoin('samples as ro', 'ro.id', 's.recollect_of')
    .leftJoin('samples as ra', 'ra.recollect_of', 's.id');
}

type SamplesQuery = ReturnType<typeof samplesQuery>;

function withColumns(q: SamplesQuery) {
  return q
    .selectAll('s')
    .select([
      'p.first_name',
      'p.last_name',
      'p.patient_code',
      'p.gender as patient_gender',
      'p.date_of_birth as patient_dob',
      'c.first_name as collector_first_name',
      'c.last_name as collector_last_name',
      'b.bill_number',
      'ro.sample_code as recollect_of_code',
      'ra.id as recollected_as',
      'ra.sample_code as recollected_as_code',
    ]);
}

export type SampleRow = Awaited<ReturnType<ReturnType<typeof withColumns>['executeTakeFirstOrThrow']>>;

export async function testsOfSamples(db: Db, ids: number[]): Promise<Map<number, SampleTestRef[]>> {
  const m = new Map<number, SampleTestRef[]>();
  if (!ids.length) return m;
  const rows = await db
    .selectFrom('sample_tests as st')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(['st.sample_id', 't.id', 't.name', 't.code'])
    .where('st.sample_id', 'in', ids)
    .orderBy('st.position')
    .execute();
  for (const r of rows) {
    const list = m.get(r.sample_id) ?? [];
    list.push({ id: r.id, name: r.name, code: r.code });
    m.set(r.sample_id, list);
  }
  return m;
}

export function toSample(r: SampleRow, tests: SampleTestRef[]): Sample {
  return {
    id: r.id,
    sample_id: r.sample_code,
    barcode: r.barcode,
    patient_id: r.patient_id,
    first_name: r.first_name,
    last_name: r.last_name,
    patient_number: r.patient_code,
    patient_gender: r.patient_gender,
    patient_dob: r.patient_dob,
    sample_type: r.sample_type,
    collection_date: r.collection_date,
    eta: r.collection_date ? sampleEta(r.collection_date) : null,
    collector_id: r.collector_id,
    collector_first_name: r.collector_first_name,
    collector_last_name: r.collector_last_name,
    priority: r.priority,
    status: r.status,
    location: r.location,
    notes: r.notes,
    rejection_reason: r.rejection_reason,
    receipt_condition: r.receipt_condition,
    bill_id: r.bill_id,
    bill_number: r.bill_number,
    recollect_of: r.recollect_of,
    recollect_of_code: r.recollect_of_code,
    recollected_as: r.recollected_as,
    recollected_as_code: r.recollected_as_code,
    container: r.container,
    reported_at: r.reported_at,
    report_print_count: r.report_print_count,
    test_ids: tests.map((t) => t.id),
    tests,
    completed_at: r.completed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export async function findSampleRow(
  db: Db,
  organizationId: number,
  where: { id?: number; barcode?: string; code?: string },
): Promise<SampleRow | undefined> {
  let q = withColumns(samplesQuery(db, organizationId));
  if (where.id !== undefined) q = q.where('s.id', '=', where.id);
  if (where.barcode !== undefined) q = q.where('s.barcode', '=', where.barcode);
  if (where.code !== undefined) q = q.where('s.sample_code', '=', where.code);
  return q.executeTakeFirst();
}

export async function sampleHistory(db: Db, sampleId: number): Promise<SampleHistoryEntry[]> {
  return db.selectFrom('sample_status_history').selectAll().where('sample_id', '=', sampleId).orderBy('id').execute();
}

/** Search: sample ID, barcode, sample type, patient first or last name or code (spec 001). */
export async function pageSamples(db: Db, organizationId: number, f: SampleListQuery): Promise<RowsPage<SampleRow>> {
  let q = samplesQuery(db, organizationId);
  if (f.status) q = q.where('s.status', '=', f.status);
  if (f.priority) q = q.where('s.priority', '=', f.priority);
  if (f.patient_id) q = q.where('s.patient_id', '=', f.patient_id);
  if (f.report === 'to_report') q = q.where('s.status', '=', 'completed').where('s.report_print_count', '=', 0);
  if (f.search) {
    const s = `%${f.search.toLowerCase()}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(s.sample_code)`, 'like', s),
        eb(sql`lower(coalesce(s.barcode, ''))`, 'like', s),
        eb(sql`lower(s.sample_type)`, 'like', s),
        eb(sql`lower(p.first_name || ' ' || p.last_name)`, 'like', s),
        eb(sql`lower(p.patient_code)`, 'like', s),
      ]),
    );
  }
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await withColumns(q).orderBy('s.id', 'desc').$call(onPage(f)).execute();
  return { rows, total: Number(n) };
}

export async function sampleCounts(db: Db, organizationId: number) {
  const rows = await db
    .selectFrom('samples')
    .select([
      'status',
      (eb) => eb.fn.countAll<number>().as('n'),
      sql<number>`sum(CASE WHEN barcode IS NOT NULL THEN 1 ELSE 0 END)`.as('with_barcode'),
    ])
    .where('organization_id', '=', organizationId)
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n), withBarcode: Number(r.with_barcode ?? 0) }));
}

/** Collection-to-completion time of completed samples, in minutes. */
export async function processingTime(
  db: Db,
  organizationId: number,
): Promise<{ avgMinutes: number | null; n: number }> {
  const row = await db
    .selectFrom('samples')
    .select([
      sql<number | null>`avg(${minutesBetween(db, 'collection_date', 'completed_at')})`.as('avg_minutes'),
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'completed')
    .where('completed_at', 'is not', null)
    .where('collection_date', 'is not', null)
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { avgMinutes: n > 0 && row.avg_minutes !== null ? Math.round(Number(row.avg_minutes)) : null, n };
}

/** The sample of this lab that has this barcode, if any. */
export function barcodeOwner(db: Db, organizationId: number, barcode: string) {
  return labTable(db, 'samples', organizationId)
    .select(['id', 'sample_code'])
    .where('barcode', '=', barcode)
    .executeTakeFirst();
}

/** The sample's own row (no joins), for the checks of a write. */
export function sampleOwnRow(db: Db, organizationId: number, id: number) {
  return labRows(db, 'samples', organizationId).where('id', '=', id).executeTakeFirst();
}

export function insertSampleRow(trx: Db, values: Insertable<SamplesTable>): Promise<Selectable<SamplesTable>> {
  return trx.insertInto('samples').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateSampleRow(trx: Db, id: number, patch: Updateable<SamplesTable>): Promise<void> {
  await trx.updateTable('samples').set(patch).where('id', '=', id).execute();
}

export async function deleteSampleRow(trx: Db, id: number): Promise<void> {
  await trx.deleteFrom('samples').where('id', '=', id).execute();
}

/** The tests ordered on a sample, in order; `replace` first removes the ones it had. */
export async function setSampleTests(trx: Db, sampleId: number, testIds: number[], replace = false): Promise<void> {
  if (replace) await trx.deleteFrom('sample_tests').where('sample_id', '=', sampleId).execute();
  if (testIds.length)
    await trx
      .insertInto('sample_tests')
      .values(testIds.map((test_id, position) => ({ sample_id: sampleId, test_id, position })))
      .execute();
}

export async function insertHistoryRow(trx: Db, values: Insertable<SampleStatusHistoryTable>): Promise<void> {
  await trx.insertInto('sample_status_history').values(values).execute();
}

export function samplesWithoutBarcode(db: Db, organizationId: number) {
  return labTable(db, 'samples', organizationId)
    .select(['id', 'sample_code', 'sample_type'])
    .where('barcode', 'is', null)
    .orderBy('id')
    .execute();
}

export async function insertLocationRows(trx: Db, rows: Insertable<CollectionLocationsTable>[]): Promise<void> {
  if (rows.length) await trx.insertInto('collection_locations').values(rows).execute();
}

/** A new lab's collection locations: the default list (DEFAULT_COLLECTION_LOCATIONS), in its order, active. */
export function insertDefaultLocations(trx: Db, organizationId: number, now: string): Promise<void> {
  return insertLocationRows(
    trx,
    DEFAULT_COLLECTION_LOCATIONS.map((l, position) => ({
      organization_id: organizationId,
      name: l.name,
      kind: l.kind,
      position,
      is_active: 1,
      created_at: now,
      updated_at: now,
    })),
  );
}

/** A bill's samples still waiting to be drawn. */
export function pendingSamplesOfBill(db: Db, organizationId: number, billId: number) {
  return labTable(db, 'samples', organizationId)
    .select(['id', 'sample_code', 'barcode', 'container'])
    .where('bill_id', '=', billId)
    .where('status', '=', 'pending')
    .execute();
}

/** A patient's samples, newest first (Patient History). */
export function sampleRowsOfPatient(db: Db, organizationId: number, patientId: number) {
  return labTable(db, 'samples', organizationId)
    .select(['id', 'sample_code', 'barcode', 'sample_type', 'status', 'priority', 'collection_date', 'created_at'])
    .where('patient_id', '=', patientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The lab's collection locations in screen order; inactive ones too when asked. */
export function locationRows(db: Db, organizationId: number, includeInactive: boolean) {
  let q = labTable(db, 'collection_locations', organizationId).select(['id', 'name', 'kind', 'position', 'is_active']);
  if (!includeInactive) q = q.where('is_active', '=', 1);
  return q.orderBy('position').orderBy('name').execute();
}

export function locationNamed(db: Db, organizationId: number, name: string) {
  return labTable(db, 'collection_locations', organizationId).select('id').where('name', '=', name).executeTakeFirst();
}

export function lastLocationPosition(db: Db, organizationId: number) {
  return labTable(db, 'collection_locations', organizationId)
    .select((eb) => eb.fn.max('position').as('p'))
    .executeTakeFirst();
}

export function insertLocationRow(trx: Db, values: Insertable<CollectionLocationsTable>) {
  return trx.insertInto('collection_locations').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findLocationRow(db: Db, organizationId: number, id: number) {
  return labRows(db, 'collection_locations', organizationId).where('id', '=', id).executeTakeFirst();
}

export function updateLocationRow(trx: Db, id: number, patch: Updateable<CollectionLocationsTable>) {
  return trx
    .updateTable('collection_locations')
    .set(patch)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A sample by its database id, its code (SMP...) or its barcode, as the CLI accepts it. */
export async function findSampleId(db: Db, organizationId: number, ref: string): Promise<number | null> {
  const by = (column: 'sample_code' | 'id' | 'barcode', value: string | number) =>
    labTable(db, 'samples', organizationId).select('id').where(column, '=', value).executeTakeFirst();
  const byCode = await by('sample_code', ref.toUpperCase());
  if (byCode) return byCode.id;
  if (/^\d+$/.test(ref)) {
    const byId = await by('id', Number(ref));
    if (byId) return byId.id;
  }
  return (await by('barcode', ref.toUpperCase()))?.id ?? null;
}

/** Every sample of a bill (the tubes of one visit), in the order they were created. */
export function sampleIdsOfBill(db: Db, organizationId: number, billId: number) {
  return labTable(db, 'samples', organizationId)
    .select(['id', 'status', 'rejection_reason'])
    .where('bill_id', '=', billId)
    .orderBy('id')
    .execute();
}

/** Every sample of a bill with each test on it and the test's name (a change of the bill's tests checks these). */
export function testsOnSamplesOfBill(db: Db, organizationId: number, billId: number) {
  return (
    db
      .selectFrom('samples as s')
      .innerJoin('sample_tests as st', 'st.sample_id', 's.id')
      .innerJoin('tests as t', 't.id', 'st.test_id')
      // The tube taken again for a rejected one (same lab: recollect_of only points within it).
      .leftJoin('samples as ra', 'ra.recollect_of', 's.id')
      .select([
        's.id',
        's.sample_code',
        's.sample_type',
        's.status',
        's.container',
        's.reported_at',
        's.report_print_count',
        's.rejection_reason',
        'ra.sample_code as recollected_as_code',
        'st.test_id',
        'st.position',
        't.name as test_name',
      ])
      .where('s.organization_id', '=', organizationId)
      .where('s.bill_id', '=', billId)
      .orderBy('s.id')
      .orderBy('st.position')
      .execute()
  );
}
