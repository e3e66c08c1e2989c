import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { StockAlertSettingsTable, StockAlertsTable } from './tables.js';
import type { AlertListQuery } from '../../shared/schemas/inventory.js';
import { labRows } from '../db/joins.js';
import { labTable } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/** Stock alerts and the lab's alert settings, always filtered by the lab. */

export type AlertRow = Selectable<StockAlertsTable>;
export type AlertSettingsRow = Selectable<StockAlertSettingsTable>;

function alertsQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('stock_alerts as a')
    .innerJoin('inventory_items as i', 'i.id', 'a.item_id')
    .leftJoin('suppliers as s', 's.id', 'i.supplier_id')
    .leftJoin('users as u', 'u.id', 'a.acknowledged_by')
    .where('a.organization_id', '=', organizationId)
    .selectAll('a')
    .select([
      'i.item_name',
      'i.item_code',
      'i.kind as item_type',
      'i.unit',
      'i.minimum_stock',
      'i.maximum_stock',
      's.name as supplier_name',
      sql<string | null>`CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END`.as(
        'acknowledged_by_name',
      ),
    ]);
}

export type AlertFullRow = Awaited<ReturnType<ReturnType<typeof alertsQuery>['executeTakeFirstOrThrow']>>;

const PRIORITY_ORDER = sql`CASE a.priority WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END`;

export async function selectAlertPage(
  db: Db,
  organizationId: number,
  q: AlertListQuery,
): Promise<RowsPage<AlertFullRow>> {
  let f = alertsQuery(db, organizationId);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    f = f.where((eb) => eb.or([eb(sql`lower(i.item_name)`, 'like', s), eb(sql`lower(i.item_code)`, 'like', s)]));
  }
  if (q.status) f = f.where('a.status', '=', q.status);
  if (q.open === 'true') f = f.where('a.status', '<>', 'resolved');
  if (q.open === 'false') f = f.where('a.status', '=', 'resolved');
  if (q.priority) f = f.where('a.priority', '=', q.priority);
  if (q.alert_type) f = f.where('a.alert_type', '=', q.alert_type);
  if (q.kind) f = f.where('i.kind', '=', q.kind);
  const { n } = await db
    .selectFrom(f.as('x'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await f
    .orderBy(sql`CASE WHEN a.status = 'resolved' THEN 1 ELSE 0 END`)
    .orderBy(PRIORITY_ORDER)
    .orderBy('a.last_alert_at', 'desc')
    .orderBy('a.id', 'desc')
    .$call(onPage(q))
    .execute();
  return { rows, total: Number(n) };
}

export function findAlertFull(db: Db, organizationId: number, id: number): Promise<AlertFullRow | undefined> {
  return alertsQuery(db, organizationId).where('a.id', '=', id).executeTakeFirst();
}

/** The open (active or acknowledged) alerts of one item. */
export function openAlertsOf(trx: Db, itemId: number): Promise<AlertRow[]> {
  return trx
    .selectFrom('stock_alerts')
    .selectAll()
    .where('item_id', '=', itemId)
    .where('status', '<>', 'resolved')
    .execute();
}

export function insertAlert(trx: Db, values: Insertable<StockAlertsTable>): Promise<AlertRow> {
  return trx.insertInto('stock_alerts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAlertRow(trx: Db, id: number, patch: Updateable<StockAlertsTable>): Promise<void> {
  await trx.updateTable('stock_alerts').set(patch).where('id', '=', id).execute();
}

export async function alertCounts(db: Db, organizationId: number, resolvedSince: string) {
  const r = await db
    .selectFrom('stock_alerts as a')
    .innerJoin('inventory_items as i', 'i.id', 'a.item_id')
    .where('a.organization_id', '=', organizationId)
    .select([
      sql<number>`coalesce(sum(CASE WHEN a.status = 'active' THEN 1 ELSE 0 END), 0)`.as('active'),
      sql<number>`coalesce(sum(CASE WHEN a.status = 'acknowledged' THEN 1 ELSE 0 END), 0)`.as('acknowledged'),
      sql<number>`coalesce(sum(CASE WHEN a.status <> 'resolved' AND a.priority = 'critical' THEN 1 ELSE 0 END), 0)`.as(
        'critical',
      ),
      sql<number>`coalesce(sum(CASE WHEN a.status = 'resolved' AND a.resolved_at >= ${resolvedSince} THEN 1 ELSE 0 END), 0)`.as(
        'resolved',
      ),
    ])
    .executeTakeFirstOrThrow();
  return {
    active: Number(r.active),
    acknowledged: Number(r.acknowledged),
    critical: Number(r.critical),
    resolved: Number(r.resolved),
  };
}

export async function openByType(db: Db, organizationId: number) {
  const rows = await labTable(db, 'stock_alerts', organizationId)
    .select(['alert_type', sql<number>`count(*)`.as('n')])
    .where('status', '<>', 'resolved')
    .groupBy('alert_type')
    .execute();
  return new Map(rows.map((r) => [r.alert_type, Number(r.n)]));
}

/** Raised and resolved times since `since` (ISO), for the weekly trend. */
export function alertTimesSince(db: Db, organizationId: number, since: string) {
  return labTable(db, 'stock_alerts', organizationId)
    .select(['created_at', 'resolved_at'])
    .where((eb) => eb.or([eb('created_at', '>=', since), eb('resolved_at', '>=', since)]))
    .execute();
}

export function findAlertSettings(db: Db, organizationId: number): Promise<AlertSettingsRow | undefined> {
  return labRows(db, 'stock_alert_settings', organizationId).executeTakeFirst();
}

export async function saveAlertSettings(trx: Db, values: Insertable<StockAlertSettingsTable>): Promise<void> {
  await trx
    .insertInto('stock_alert_settings')
    .values(values)
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({
        expiry_warning_days: values.expiry_warning_days,
        approaching_margin_percent: values.approaching_margin_percent,
        swept_on: values.swept_on,
        updated_at: values.updated_at,
      }),
    )
    .execute();
}

/** Open low / out-of-stock alerts with their item's name, most urgent first (the Enhanced Dashboard). */
export async function openShortages(db: Db, organizationId: number, limit: number) {
  const base = db
    .selectFrom('stock_alerts as a')
    .where('a.organization_id', '=', organizationId)
    .where('a.status', '<>', 'resolved')
    .where('a.alert_type', 'in', ['low_stock', 'out_of_stock']);
  const total = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('inventory_items as i', 'i.id', 'a.item_id')
    .select(['i.item_name', 'a.alert_type', 'a.priority', 'a.current_stock'])
    .orderBy(sql`CASE WHEN a.alert_type = 'out_of_stock' THEN 0 ELSE 1 END`)
    .orderBy('i.item_name')
    .limit(limit)
    .execute();
  return { total: Number(total.n), rows };
}
