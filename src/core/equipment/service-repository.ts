import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { Db } from '../db/connection.js';
import type { EquipmentServicesTable } from './tables.js';
import type { ServiceKind, ServiceListQuery } from '../../shared/schemas/equipment.js';
import { labTable, labUpdate, labDelete } from '../db/lab-tables.js';
import { onPage } from '../db/paging.js';

/**
 * Every query of calibration and maintenance records (equipment_services, one table with `kind`),
 * always filtered by the lab. "Overdue" and "upcoming" compare the due date with the lab's today,
 * which the caller passes.
 */

/** The shown status: an open record whose due date is before today is overdue. */
export function shownServiceStatusSql(today: string) {
  return sql<string>`case when s.status in ('scheduled', 'in_progress') and s.due_date < ${today} then 'overdue' else s.status end`;
}

function base(db: Db, organizationId: number, kind: ServiceKind) {
  return db
    .selectFrom('equipment_services as s')
    .innerJoin('equipment as e', 'e.id', 's.equipment_id')
    .leftJoin('equipment_files as f', 'f.id', 's.certificate_id')
    .where('s.organization_id', '=', organizationId)
    .where('s.kind', '=', kind);
}

function selectColumns(q: ReturnType<typeof base>, today: string) {
  return q.select([
    's.id',
    's.equipment_id',
    'e.name as equipment_name',
    'e.kind as equipment_kind',
    'e.serial_number',
    's.type',
    's.status as set_status',
    shownServiceStatusSql(today).as('status'),
    's.due_date',
    's.interval_days',
    's.performed_by',
    's.performed_at',
    's.accuracy',
    's.cost_paise',
    's.description',
    's.next_due',
    's.certificate_id',
    'f.file_name as certificate_name',
    'f.content_type as certificate_type',
    'f.size as certificate_size',
    'f.uploaded_at as certificate_uploaded_at',
    's.created_at',
    's.updated_at',
  ]);
}

export type ServiceRow = Awaited<ReturnType<ReturnType<typeof selectColumns>['executeTakeFirstOrThrow']>>;

function filtered(
  db: Db,
  organizationId: number,
  kind: ServiceKind,
  q: Partial<ServiceListQuery>,
  today: string,
  upcomingTo: string,
) {
  let out = base(db, organizationId, kind);
  if (q.equipment_id) out = out.where('s.equipment_id', '=', q.equipment_id);
  if (q.type) out = out.where(sql`lower(s.type)`, '=', q.type.toLowerCase());
  if (q.status === 'upcoming') {
    out = out
      .where('s.status', 'in', ['scheduled', 'in_progress'])
      .where('s.due_date', '>=', today)
      .where('s.due_date', '<=', upcomingTo);
  } else if (q.status) {
    out = out.where(sql<SqlBool>`${shownServiceStatusSql(today)} = ${q.status}` as Expression<SqlBool>);
  }
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    out = out.where((eb) =>
      eb.or([
        eb(sql`lower(e.name)`, 'like', s),
        eb(sql`lower(e.serial_number)`, 'like', s),
        eb(sql`lower(coalesce(s.performed_by, ''))`, 'like', s),
        eb(sql`lower(coalesce(s.description, ''))`, 'like', s),
      ]),
    );
  }
  return out;
}

/** A page, most urgent first: open work by due date, then done work newest first. */
export async function selectServicePage(
  db: Db,
  organizationId: number,
  kind: ServiceKind,
  q: ServiceListQuery,
  today: string,
  upcomingTo: string,
) {
  const [rows, count] = await Promise.all([
    selectColumns(filtered(db, organizationId, kind, q, today, upcomingTo), today)
      .orderBy(sql`case when s.status in ('scheduled', 'in_progress') then 0 else 1 end`)
      .orderBy(sql`case when s.status in ('scheduled', 'in_progress') then s.due_date else '' end`)
      .orderBy(sql`coalesce(s.performed_at, s.updated_at)`, 'desc')
      .orderBy('s.id', 'desc')
      .$call(onPage(q))
      .execute(),
    filtered(db, organizationId, kind, q, today, upcomingTo)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findServiceRow(db: Db, organizationId: number, kind: ServiceKind, id: number, today: string) {
  return selectColumns(base(db, organizationId, kind), today)
    .where('s.id', '=', id)
    .executeTakeFirst();
}

/** Every record of a kind whose due date (or, when done, performed day) falls in a range: the reports. */
export function selectServicesDue(
  db: Db,
  organizationId: number,
  kind: ServiceKind,
  from: string,
  to: string,
  today: string,
) {
  return selectColumns(base(db, organizationId, kind), today)
    .where('s.due_date', '>=', from)
    .where('s.due_date', '<=', to)
    .orderBy('s.due_date')
    .orderBy('s.id')
    .execute();
}

export function servicesAfter(
  db: Db,
  organizationId: number,
  kind: ServiceKind,
  offset: number,
  limit: number,
  today: string,
) {
  return selectColumns(base(db, organizationId, kind), today)
    .orderBy('s.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Counts by shown status, upcoming, certificates and this month's cost. */
export async function serviceCounts(
  db: Db,
  organizationId: number,
  kind: ServiceKind,
  today: string,
  upcomingTo: string,
  monthFromUtc: string,
) {
  const row = await db
    .selectFrom('equipment_services as s')
    .where('s.organization_id', '=', organizationId)
    .where('s.kind', '=', kind)
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`sum(case when s.status = 'scheduled' and s.due_date >= ${today} then 1 else 0 end)`.as('scheduled'),
      sql<number>`sum(case when s.status = 'in_progress' and s.due_date >= ${today} then 1 else 0 end)`.as(
        'in_progress',
      ),
      sql<number>`sum(case when s.status = 'completed' then 1 else 0 end)`.as('completed'),
      sql<number>`sum(case when s.status = 'cancelled' then 1 else 0 end)`.as('cancelled'),
      sql<number>`sum(case when s.status in ('scheduled', 'in_progress') and s.due_date < ${today} then 1 else 0 end)`.as(
        'overdue',
      ),
      sql<number>`sum(case when s.status in ('scheduled', 'in_progress') and s.due_date >= ${today} and s.due_date <= ${upcomingTo} then 1 else 0 end)`.as(
        'upcoming',
      ),
      sql<number>`sum(case when s.status = 'completed' and s.certificate_id is not null then 1 else 0 end)`.as(
        'certificates',
      ),
      sql<number>`sum(case when s.status = 'completed' and s.performed_at >= ${monthFromUtc} then coalesce(s.cost_paise, 0) else 0 end)`.as(
        'cost_month_paise',
      ),
    ])
    .executeTakeFirstOrThrow();
  const n = (v: unknown) => Number(v ?? 0);
  return {
    total: n(row.total),
    scheduled: n(row.scheduled),
    in_progress: n(row.in_progress),
    completed: n(row.completed),
    cancelled: n(row.cancelled),
    overdue: n(row.overdue),
    upcoming: n(row.upcoming),
    certificates: n(row.certificates),
    cost_month_paise: n(row.cost_month_paise),
  };
}

/** For each of these equipment: last completed and earliest open record of each kind, and overdue flags. */
export async function serviceDatesOf(db: Db, organizationId: number, ids: number[], today: string) {
  const out = new Map<
    number,
    {
      calibration_date: string | null;
      next_calibration: string | null;
      last_maintenance: string | null;
      next_maintenance: string | null;
    }
  >();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('equipment_services as s')
    .where('s.organization_id', '=', organizationId)
    .where('s.equipment_id', 'in', ids)
    .select([
      's.equipment_id',
      's.kind',
      sql<string | null>`max(case when s.status = 'completed' then s.performed_at end)`.as('last_done'),
      sql<string | null>`min(case when s.status in ('scheduled', 'in_progress') then s.due_date end)`.as('next_due'),
    ])
    .groupBy(['s.equipment_id', 's.kind'])
    .execute();
  for (const r of rows) {
    const cur = out.get(r.equipment_id) ?? {
      calibration_date: null,
      next_calibration: null,
      last_maintenance: null,
      next_maintenance: null,
    };
    if (r.kind === 'calibration') {
      cur.calibration_date = r.last_done;
      cur.next_calibration = r.next_due;
    } else {
      cur.last_maintenance = r.last_done;
      cur.next_maintenance = r.next_due;
    }
    out.set(r.equipment_id, cur);
  }
  void today;
  return out;
}

/** The open calibrations of an equipment that are past due, earliest first (for the entry warning). */
export function overdueCalibrationsOf(db: Db, organizationId: number, equipmentId: number, today: string) {
  return labTable(db, 'equipment_services', organizationId)
    .select(['id', 'due_date'])
    .where('equipment_id', '=', equipmentId)
    .where('kind', '=', 'calibration')
    .where('status', 'in', ['scheduled', 'in_progress'])
    .where('due_date', '<', today)
    .orderBy('due_date')
    .execute();
}

export function insertServiceRow(trx: Db, values: Insertable<EquipmentServicesTable>) {
  return trx.insertInto('equipment_services').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function deleteServiceRow(trx: Db, organizationId: number, id: number) {
  await labDelete(trx, 'equipment_services', organizationId).where('id', '=', id).execute();
}

/** Cancels the open work of an equipment being archived; answers the ids. */
export async function cancelOpenServices(trx: Db, organizationId: number, equipmentId: number, now: string) {
  const rows = await labUpdate(trx, 'equipment_services', organizationId)
    .set({ status: 'cancelled', updated_at: now })
    .where('equipment_id', '=', equipmentId)
    .where('status', 'in', ['scheduled', 'in_progress'])
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Every open record of the lab past its due date, with its equipment: the overdue sweep's list. */
export function openServicesOverdue(db: Db, organizationId: number, today: string) {
  return db
    .selectFrom('equipment_services as s')
    .innerJoin('equipment as e', 'e.id', 's.equipment_id')
    .select([
      's.id',
      's.kind',
      's.type',
      's.due_date',
      'e.name as equipment_name',
      'e.serial_number',
      'e.kind as equipment_kind',
    ])
    .where('s.organization_id', '=', organizationId)
    .where('e.organization_id', '=', organizationId)
    .where('e.archived_at', 'is', null)
    .where('s.status', 'in', ['scheduled', 'in_progress'])
    .where('s.due_date', '<', today)
    .orderBy('s.due_date')
    .orderBy('s.id')
    .execute();
}

/**
 * A page of a kind's records in id order, for the export. Records of archived equipment stay out,
 * as that equipment does (an import could not name it).
 */
export function serviceRowsAfter(
  db: Db,
  organizationId: number,
  kind: ServiceKind,
  today: string,
  offset: number,
  limit: number,
) {
  return selectColumns(base(db, organizationId, kind).where('e.archived_at', 'is', null), today)
    .orderBy('s.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The lab's open calibrations past due (before the lab's `today`), earliest first, with the equipment's name. */
export async function overdueCalibrations(db: Db, organizationId: number, today: string, limit: number) {
  const base = db
    .selectFrom('equipment_services as s')
    .innerJoin('equipment as e', 'e.id', 's.equipment_id')
    .where('s.organization_id', '=', organizationId)
    .where('e.archived_at', 'is', null)
    .where('s.kind', '=', 'calibration')
    .where('s.status', 'in', ['scheduled', 'in_progress'])
    .where('s.due_date', '<', today);
  const total = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['e.name', 's.type', 's.due_date'])
    .orderBy('s.due_date')
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return { total: Number(total.n), rows };
}
