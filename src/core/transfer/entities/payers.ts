import type { z } from 'zod';
import {
  PAYER_STATUSES,
  PAYER_TYPES,
  payerCreateSchema,
  payerUpdateSchema,
  type PayerCreate,
  type PayerUpdate,
} from '../../../shared/schemas/payers.js';
import { applyPayerUpdate, insertPayerRecord, listPayers } from '../../payers/service.js';
import { payerRowsByNames, type PayerRow } from '../../payers/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { keyedWrites, lowerKey, oneOf, recordOf, type KeyedPlan } from './common.js';

/**
 * Payers (corporate clients, insurers/TPAs, referring hospitals, collection centres),
 * keyed by name (unique in the lab, case ignored). What a payer owes and its bill count are
 * computed from its bills: exported, ignored on import. Price lists do not travel in this file.
 */

const columns: TransferColumn[] = [
  { name: 'name' },
  { name: 'type' },
  { name: 'gstin' },
  { name: 'address' },
  { name: 'state_code' },
  { name: 'contact_person' },
  { name: 'phone' },
  { name: 'email' },
  { name: 'credit_limit', kind: 'number' },
  { name: 'payment_terms_days', kind: 'number' },
  { name: 'discount_percent', kind: 'number' },
  { name: 'status' },
  { name: 'balance', kind: 'number', readOnly: true },
  { name: 'bills', kind: 'number', readOnly: true },
];

type Plan = KeyedPlan<PayerCreate>;

export const payers: TransferEntity<PayerCreate, PayerRow, Plan> = {
  name: 'payers',
  label: 'payer',
  auditEntity: 'payer',
  columns,
  key: 'name',
  normalizeKey: lowerKey,
  requiredColumns: ['name', 'type'],
  createSchema: payerCreateSchema,
  updateSchema: payerUpdateSchema as z.ZodType<Partial<PayerCreate>>,

  findExisting: (ctx, keys) => payerRowsByNames(ctx.db, ctx.organizationId, keys),

  ...keyedWrites<PayerCreate>(
    'name',
    (ctx, input) => insertPayerRecord(ctx.db, ctx.actor, input),
    (ctx, id, input) => applyPayerUpdate(ctx.db, ctx.actor, id, input as PayerUpdate),
  ),

  filters: { type: oneOf(PAYER_TYPES), status: oneOf(PAYER_STATUSES) },
  async *exportPages(db, organizationId, q) {
    const type = q.where.type as (typeof PAYER_TYPES)[number] | undefined;
    const status = q.where.status as (typeof PAYER_STATUSES)[number] | undefined;
    for (let page = 1; ; page += 1) {
      const r = await listPayers(db, organizationId, { page, limit: 200, type, status });
      if (r.payers.length) yield r.payers.map((p) => recordOf(columns, p));
      if (!r.hasNextPage) return;
    }
  },
};
