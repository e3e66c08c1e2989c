import type { z } from 'zod';
import {
  supplierCreateSchema,
  supplierUpdateSchema,
  type SupplierCreate,
  type SupplierUpdate,
} from '../../../shared/schemas/inventory.js';
import { applySupplierUpdate, insertSupplierRecord, listSuppliers } from '../../inventory/service.js';
import { suppliersByNames, type SupplierRow } from '../../inventory/supplier-repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { keyedWrites, lowerKey, recordOf, type KeyedPlan } from './common.js';

/**
 * The supplier register, keyed by name (the register keeps names unique in the lab,
 * case ignored). Delivery figures are computed from receipts: exported, ignored on import.
 */

const columns: TransferColumn[] = [
  { name: 'name' },
  { name: 'contact_person' },
  { name: 'phone' },
  { name: 'email' },
  { name: 'gstin' },
  { name: 'lead_time_days', kind: 'number' },
  { name: 'deliveries', kind: 'number', readOnly: true },
  { name: 'on_time_rate', kind: 'number', readOnly: true },
  { name: 'rejected', kind: 'number', readOnly: true },
];

type Plan = KeyedPlan<SupplierCreate>;

export const suppliers: TransferEntity<SupplierCreate, SupplierRow, Plan> = {
  name: 'suppliers',
  label: 'supplier',
  auditEntity: 'supplier',
  columns,
  key: 'name',
  normalizeKey: lowerKey,
  requiredColumns: ['name'],
  createSchema: supplierCreateSchema,
  updateSchema: supplierUpdateSchema as z.ZodType<Partial<SupplierCreate>>,

  findExisting: (ctx, keys) => suppliersByNames(ctx.db, ctx.organizationId, keys),

  ...keyedWrites<SupplierCreate>(
    'name',
    (ctx, input) => insertSupplierRecord(ctx.db, ctx.actor, input),
    (ctx, id, input) => applySupplierUpdate(ctx.db, ctx.actor, id, input as SupplierUpdate),
  ),

  filters: {},
  // The register is small (tens of suppliers): one page.
  async *exportPages(db, organizationId) {
    const all = await listSuppliers(db, organizationId);
    if (all.length) yield all.map((s) => recordOf(columns, s));
  },
};
