import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { Db } from '../db/connection.js';
import type {
  EquipmentFilesTable,
  EquipmentReadingsTable,
  EquipmentStatusHistoryTable,
  EquipmentTable,
} from './tables.js';
import type { EquipmentListQuery } from '../../shared/schemas/equipment.js';
import { fullName } from '../db/joins.js';
import { labTable, labDelete } from '../db/lab-tables.js';
import { onPage } from '../db/paging.js';

/**
 * Every query of the equipment register (equipment, status history, readings, certificates' bytes),
 * always filtered by the lab. Calibration and maintenance records: service-repository.ts.
 */

const OPEN = ['scheduled', 'in_progress'] as const;

/** An open calibration of the equipment is past due (its due date before the lab's `today`). */
export function calibrationOverdueSql(today: string) {
  return sql<SqlBool>`exists (select 1 from equipment_services cs where cs.equipment_id = e.id and cs.kind = 'calibration' and cs.status in ('scheduled', 'in_progress') and cs.due_date < ${today})`;
}

/** The status the screens show: an operational instrument past its calibration due date is calibration_due. */
function shownStatusSql(today: string) {
  return sql<string>`case when e.kind = 'instrument' and e.status = 'operational' and ${calibrationOverdueSql(today)} then 'calibration_due' else e.status end`;
}

function base(db: Db, organizationId: number) {
  return db
    .selectFrom('equipment as e')
    .where('e.organization_id', '=', organizationId)
    .where('e.archived_at', 'is', null);
}

export async function findEquipmentRow(db: Db, organizationId: number, id: number) {
  return base(db, organizationId).selectAll('e').where('e.id', '=', id).executeTakeFirst();
}

export function equipmentRowsBySerials(db: Db, organizationId: number, serials: string[]) {
  if (!serials.length) return Promise.resolve([]);
  return base(db, organizationId)
    .selectAll('e')
    .where(
      sql<string>`lower(e.serial_number)`,
      'in',
      serials.map((s) => s.toLowerCase()),
    )
    .execute();
}

export async function serialTaken(db: Db, organizationId: number, serial: string, exceptId?: number) {
  let q = base(db, organizationId)
    .select('e.id')
    .where(sql<string>`lower(e.serial_number)`, '=', serial.toLowerCase());
  if (exceptId !== undefined) q = q.where('e.id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

function filtered(db: Db, organizationId: number, q: Partial<EquipmentListQuery>, today: string) {
  let out = base(db, organizationId);
  if (q.kind) out = out.where('e.kind', '=', q.kind);
  if (q.location) out = out.where(sql`lower(coalesce(e.location, ''))`, '=', q.location.toLowerCase());
  if (q.type) out = out.where(sql`lower(coalesce(e.type, ''))`, '=', q.type.toLowerCase());
  if (q.status) out = out.where(sql<SqlBool>`${shownStatusSql(today)} = ${q.status}` as Expression<SqlBool>);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    out = out.where((eb) =>
      eb.or([
        eb(sql`lower(e.name)`, 'like', s),
        eb(sql`lower(coalesce(e.model, ''))`, 'like', s),
        eb(sql`lower(e.serial_number)`, 'like', s),
        eb(sql`lower(coalesce(e.location, ''))`, 'like', s),
        eb(sql`lower(coalesce(e.type, ''))`, 'like', s),
      ]),
    );
  }
  return out;
}

export async function selectEquipmentPage(db: Db, organizationId: number, q: EquipmentListQuery, today: string) {
  const [rows, count] = await Promise.all([
    filtered(db, organizationId, q, today).selectAll('e').orderBy('e.name').orderBy('e.id').$call(onPage(q)).execute(),
    filtered(db, organizationId, q, today)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Every current equipment row of the lab (of a kind): the summary cards. */
export function selectAllEquipment(db: Db, organizationId: number, kind?: string) {
  let q = base(db, organizationId).selectAll('e');
  if (kind) q = q.where('e.kind', '=', kind);
  return q.orderBy('e.id').execute();
}

export function equipmentRowsAfter(db: Db, organizationId: number, offset: number, limit: number) {
  return base(db, organizationId).selectAll('e').orderBy('e.id').limit(limit).offset(offset).execute();
}

export function insertEquipmentRow(trx: Db, values: Insertable<EquipmentTable>) {
  return trx.insertInto('equipment').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function deleteEquipmentRow(trx: Db, organizationId: number, id: number) {
  await labDelete(trx, 'equipment_status_history', organizationId).where('equipment_id', '=', id).execute();
  await labDelete(trx, 'equipment', organizationId).where('id', '=', id).execute();
}

/** How many records name the equipment (results, QC runs, calibration or maintenance work, readings). */
export async function referencesTo(db: Db, id: number): Promise<number> {
  const row = await db
    .selectNoFrom([
      sql<number>`(select count(*) from test_results where equipment_id = ${id})`.as('results'),
      sql<number>`(select count(*) from qc_runs where equipment_id = ${id})`.as('qc'),
      sql<number>`(select count(*) from equipment_services where equipment_id = ${id})`.as('services'),
      sql<number>`(select count(*) from equipment_readings where equipment_id = ${id})`.as('readings'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.results) + Number(row.qc) + Number(row.services) + Number(row.readings);
}

// ---- Status history ----

export function insertStatusHistory(trx: Db, values: Insertable<EquipmentStatusHistoryTable>) {
  return trx.insertInto('equipment_status_history').values(values).execute();
}

export function selectStatusHistory(db: Db, organizationId: number, equipmentId: number, limit = 100) {
  return db
    .selectFrom('equipment_status_history as h')
    .leftJoin('users as u', 'u.id', 'h.changed_by')
    .select(['h.id', 'h.status', 'h.previous_status', 'h.reason', 'h.changed_at', fullName('u').as('changed_by_name')])
    .where('h.organization_id', '=', organizationId)
    .where('h.equipment_id', '=', equipmentId)
    .orderBy('h.changed_at', 'desc')
    .orderBy('h.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The id of each of these equipment's last row (the highest id) in a log of it, among the rows
 * `narrow` keeps; `narrow` names the log's row `x`.
 */
function lastIdOfEach(
  db: Db,
  table: 'equipment_status_history' | 'equipment_readings',
  ids: number[],
  narrow: Expression<SqlBool>,
) {
  // Both logs have the id and equipment_id read here; Kysely cannot type an alias of a union of tables.
  return db
    .selectFrom(`${table} as x` as 'equipment_readings as x')
    .select(sql<number>`max(x.id)`.as('id'))
    .where('x.equipment_id', 'in', ids)
    .where(narrow)
    .groupBy('x.equipment_id');
}

/** The history of these equipment from `since` on, plus each one's last entry before it (its status then). */
export async function historySince(db: Db, organizationId: number, ids: number[], since: string) {
  if (!ids.length) return [];
  const inWindow = await labTable(db, 'equipment_status_history', organizationId)
    .select(['equipment_id', 'status', 'changed_at', 'id'])
    .where('equipment_id', 'in', ids)
    .where('changed_at', '>', since)
    .execute();
  const before = await db
    .selectFrom('equipment_status_history as h')
    .select(['h.equipment_id', 'h.status', 'h.changed_at', 'h.id'])
    .where('h.organization_id', '=', organizationId)
    .where('h.equipment_id', 'in', ids)
    .where('h.id', 'in', lastIdOfEach(db, 'equipment_status_history', ids, sql<SqlBool>`x.changed_at <= ${since}`))
    .execute();
  return [...before, ...inWindow];
}

/** Results and QC runs naming each of these equipment from `since` on. */
export async function testCountsSince(db: Db, organizationId: number, ids: number[], since: string) {
  const out = new Map<number, number>();
  if (!ids.length) return out;
  const results = await labTable(db, 'test_results', organizationId)
    .select(['equipment_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('equipment_id', 'in', ids)
    .where('entered_at', '>=', since)
    .groupBy('equipment_id')
    .execute();
  const qc = await labTable(db, 'qc_runs', organizationId)
    .select(['equipment_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('equipment_id', 'in', ids)
    .where('performed_at', '>=', since)
    .groupBy('equipment_id')
    .execute();
  for (const r of [...results, ...qc]) {
    if (r.equipment_id == null) continue;
    out.set(r.equipment_id, (out.get(r.equipment_id) ?? 0) + Number(r.n));
  }
  return out;
}

// ---- Readings ----

export function insertReadingRow(trx: Db, values: Insertable<EquipmentReadingsTable>) {
  return trx.insertInto('equipment_readings').values(values).returningAll().executeTakeFirstOrThrow();
}

function readingsQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('equipment_readings as r')
    .leftJoin('users as u', 'u.id', 'r.recorded_by')
    .select([
      'r.id',
      'r.equipment_id',
      'r.temperature',
      'r.humidity',
      'r.out_of_range',
      'r.notes',
      'r.recorded_at',
      fullName('u').as('recorded_by_name'),
    ])
    .where('r.organization_id', '=', organizationId);
}

export type ReadingRow = Awaited<ReturnType<ReturnType<typeof readingsQuery>['executeTakeFirstOrThrow']>>;

export function selectReadings(db: Db, organizationId: number, equipmentId: number, limit = 100) {
  return readingsQuery(db, organizationId)
    .where('r.equipment_id', '=', equipmentId)
    .orderBy('r.recorded_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}

export async function selectReadingById(db: Db, organizationId: number, id: number) {
  return readingsQuery(db, organizationId).where('r.id', '=', id).executeTakeFirstOrThrow();
}

/** The latest reading of each of these equipment. */
export async function latestReadings(db: Db, organizationId: number, ids: number[]) {
  if (!ids.length) return new Map<number, ReadingRow>();
  const rows = await readingsQuery(db, organizationId)
    .where('r.equipment_id', 'in', ids)
    .where(
      'r.id',
      'in',
      lastIdOfEach(
        db,
        'equipment_readings',
        ids,
        sql<SqlBool>`x.recorded_at = (select max(r3.recorded_at) from equipment_readings r3 where r3.equipment_id = x.equipment_id)`,
      ),
    )
    .execute();
  return new Map(rows.map((r) => [r.equipment_id, r]));
}

// ---- Files (certificates) ----

export function insertFileRow(trx: Db, values: Insertable<EquipmentFilesTable>) {
  return trx
    .insertInto('equipment_files')
    .values(values)
    .returning(['id', 'file_name', 'content_type', 'size', 'uploaded_at'])
    .executeTakeFirstOrThrow();
}

export function selectFile(db: Db, organizationId: number, id: number) {
  return labTable(db, 'equipment_files', organizationId)
    .select(['id', 'file_name', 'content_type', 'size', 'data', 'uploaded_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteFileRow(trx: Db, organizationId: number, id: number) {
  await labDelete(trx, 'equipment_files', organizationId).where('id', '=', id).execute();
}

export { OPEN as OPEN_SERVICE_STATUSES };
