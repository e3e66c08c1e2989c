import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { isUniqueViolation } from '../db/dialect.js';
import { organizationTimezone } from '../settings/service.js';
import { localDate } from '../../shared/time.js';
import type { Supplier, SupplierCreate, SupplierUpdate } from '../../shared/schemas/inventory.js';
import {
  allSuppliers,
  deleteSupplierRow,
  findSupplier,
  findSupplierByName,
  findSupplierFull,
  insertSupplier,
  receiptsWithDueDate,
  supplierReferences,
  updateSupplierRow,
  type SupplierRow,
} from './supplier-repository.js';
import { toSupplier } from './mappers.js';

/**
 * The supplier register. Performance is measured from real receipts: deliveries, those that came
 * by their due date (the receipt's expected_date, compared on the lab's calendar) and rejected ones.
 */

async function onTimeCounts(db: Db, organizationId: number): Promise<Map<number, number>> {
  const timeZone = await organizationTimezone(db, organizationId);
  const out = new Map<number, number>();
  for (const r of await receiptsWithDueDate(db, organizationId)) {
    if (localDate(timeZone, new Date(r.created_at)) <= r.expected_date!)
      out.set(r.supplier_id!, (out.get(r.supplier_id!) ?? 0) + 1);
  }
  return out;
}

export async function listSuppliers(db: Db, organizationId: number): Promise<Supplier[]> {
  const onTime = await onTimeCounts(db, organizationId);
  return (await allSuppliers(db, organizationId)).map((r) => toSupplier(r, onTime.get(r.id) ?? 0));
}

export async function getSupplier(db: Db, organizationId: number, id: number): Promise<Supplier> {
  const row = await findSupplierFull(db, organizationId, id);
  if (!row) throw new NotFoundError('Supplier', id);
  const onTime = await onTimeCounts(db, organizationId);
  return toSupplier(row, onTime.get(id) ?? 0);
}

const nameTaken = (name: string) => new ConflictError(`A supplier named ${name} already exists`, 'SUPPLIER_EXISTS');

const auditValues = (r: SupplierRow) => {
  const { created_at: _c, updated_at: _u, organization_id: _o, ...rest } = r;
  return rest;
};

/** Inside an open transaction: a new supplier, audited (an import adds many). */
export async function insertSupplierRecord(trx: Db, actor: Actor, input: SupplierCreate): Promise<number> {
  if (await findSupplierByName(trx, actor.organizationId, input.name)) throw nameTaken(input.name);
  const now = nowIso();
  const row = await insertSupplier(trx, {
    organization_id: actor.organizationId,
    name: input.name,
    contact_person: input.contact_person ?? null,
    phone: input.phone ?? null,
    email: input.email ?? null,
    gstin: input.gstin ?? null,
    lead_time_days: input.lead_time_days ?? null,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, { action: 'create', entity: 'supplier', entityId: row.id, newValues: auditValues(row) });
  return row.id;
}

export async function createSupplier(db: Db, actor: Actor, input: SupplierCreate): Promise<Supplier> {
  try {
    const id = await db.transaction().execute((trx) => insertSupplierRecord(trx, actor, input));
    return getSupplier(db, actor.organizationId, id);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

/** Inside an open transaction: changes the given fields of a supplier, audited. */
export async function applySupplierUpdate(trx: Db, actor: Actor, id: number, input: SupplierUpdate): Promise<void> {
  const before = await findSupplier(trx, actor.organizationId, id);
  if (!before) throw new NotFoundError('Supplier', id);
  if (input.name && input.name.toLowerCase() !== before.name.toLowerCase()) {
    const other = await findSupplierByName(trx, actor.organizationId, input.name);
    if (other && other.id !== id) throw nameTaken(input.name);
  }
  await updateSupplierRow(trx, id, {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.contact_person !== undefined && { contact_person: input.contact_person ?? null }),
    ...(input.phone !== undefined && { phone: input.phone ?? null }),
    ...(input.email !== undefined && { email: input.email ?? null }),
    ...(input.gstin !== undefined && { gstin: input.gstin ?? null }),
    ...(input.lead_time_days !== undefined && { lead_time_days: input.lead_time_days }),
    updated_at: nowIso(),
  });
  const after = (await findSupplier(trx, actor.organizationId, id))!;
  const { oldValues, newValues } = diff(auditValues(before), auditValues(after));
  if (Object.keys(newValues).length)
    await writeAudit(trx, actor, { action: 'update', entity: 'supplier', entityId: id, oldValues, newValues });
}

export async function updateSupplier(db: Db, actor: Actor, id: number, input: SupplierUpdate): Promise<Supplier> {
  try {
    await db.transaction().execute((trx) => applySupplierUpdate(trx, actor, id, input));
  } catch (err) {
    if (isUniqueViolation(err) && input.name) throw nameTaken(input.name);
    throw err;
  }
  return getSupplier(db, actor.organizationId, id);
}

/** Erases a supplier nothing names; one named by an item, a lot or a receipt is kept (409). */
export async function deleteSupplier(db: Db, actor: Actor, id: number): Promise<Supplier> {
  const supplier = await getSupplier(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    const row = await findSupplier(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Supplier', id);
    if ((await supplierReferences(trx, id)) > 0)
      throw new ConflictError(
        `${row.name} is named by items or receipts and is kept for their record`,
        'SUPPLIER_IN_USE',
      );
    await deleteSupplierRow(trx, id);
    await writeAudit(trx, actor, { action: 'delete', entity: 'supplier', entityId: id, oldValues: auditValues(row) });
  });
  return supplier;
}
