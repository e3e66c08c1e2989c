import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { SuppliersTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable } from '../db/lab-tables.js';

/** The supplier register and the receipts that measure each supplier, always filtered by the lab. */

export type SupplierRow = Selectable<SuppliersTable>;

function suppliersQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('suppliers as s')
    .where('s.organization_id', '=', organizationId)
    .selectAll('s')
    .select([
      sql<number>`(SELECT count(*) FROM inventory_items i WHERE i.supplier_id = s.id AND i.archived_at IS NULL)`.as(
        'items',
      ),
      sql<number>`(SELECT count(*) FROM inventory_movements m WHERE m.supplier_id = s.id AND m.type = 'receive')`.as(
        'deliveries',
      ),
      sql<number>`(SELECT count(*) FROM inventory_movements m WHERE m.supplier_id = s.id AND m.type = 'receive'
        AND m.rejected = 1)`.as('rejected'),
      sql<number>`(SELECT count(*) FROM inventory_movements m WHERE m.supplier_id = s.id AND m.type = 'receive'
        AND m.expected_date IS NOT NULL)`.as('with_due_date'),
      sql<string | null>`(SELECT max(m.created_at) FROM inventory_movements m WHERE m.supplier_id = s.id
        AND m.type = 'receive')`.as('last_delivery'),
    ]);
}

export type SupplierFullRow = Awaited<ReturnType<ReturnType<typeof suppliersQuery>['executeTakeFirstOrThrow']>>;

export function allSuppliers(db: Db, organizationId: number): Promise<SupplierFullRow[]> {
  return suppliersQuery(db, organizationId).orderBy('s.name').orderBy('s.id').execute();
}

export function findSupplierFull(db: Db, organizationId: number, id: number): Promise<SupplierFullRow | undefined> {
  return suppliersQuery(db, organizationId).where('s.id', '=', id).executeTakeFirst();
}

export function findSupplier(db: Db, organizationId: number, id: number): Promise<SupplierRow | undefined> {
  return labRows(db, 'suppliers', organizationId).where('id', '=', id).executeTakeFirst();
}

export function findSupplierByName(db: Db, organizationId: number, name: string): Promise<SupplierRow | undefined> {
  return labRows(db, 'suppliers', organizationId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

/** Receipts with a due date and when each arrived (ISO), for the on-time count in the lab's calendar. */
export function receiptsWithDueDate(db: Db, organizationId: number) {
  return labTable(db, 'inventory_movements', organizationId)
    .select(['supplier_id', 'expected_date', 'created_at'])
    .where('type', '=', 'receive')
    .where('supplier_id', 'is not', null)
    .where('expected_date', 'is not', null)
    .execute();
}

export function insertSupplier(trx: Db, values: Insertable<SuppliersTable>): Promise<SupplierRow> {
  return trx.insertInto('suppliers').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateSupplierRow(trx: Db, id: number, patch: Updateable<SuppliersTable>): Promise<void> {
  await trx.updateTable('suppliers').set(patch).where('id', '=', id).execute();
}

/** How many items, lots and movements name the supplier (any of them keeps it in the register). */
export async function supplierReferences(db: Db, id: number): Promise<number> {
  const r = await db
    .selectFrom('suppliers as s')
    .select(
      sql<number>`(SELECT count(*) FROM inventory_items i WHERE i.supplier_id = s.id)
        + (SELECT count(*) FROM inventory_lots l WHERE l.supplier_id = s.id)
        + (SELECT count(*) FROM inventory_movements m WHERE m.supplier_id = s.id)`.as('n'),
    )
    .where('s.id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function deleteSupplierRow(trx: Db, id: number): Promise<void> {
  await trx.deleteFrom('suppliers').where('id', '=', id).execute();
}

/** Suppliers by name (compared case-insensitively), keyed by the lower-case name. */
export async function suppliersByNames(
  db: Db,
  organizationId: number,
  names: string[],
): Promise<Map<string, SupplierRow>> {
  if (!names.length) return new Map();
  const rows = await labRows(db, 'suppliers', organizationId)
    .where(
      sql<string>`lower(name)`,
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
}
