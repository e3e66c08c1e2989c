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
import { keepKey, lowerKey, oneOf } from './common.js';

/**
 * Payers (issue 16: corporate clients, insurers/TPAs, referring hospitals, collection centres),
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

type Plan = { row: number; id: number | null; input: PayerCreate };

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

  plan: async (_ctx, rows) =>
    rows.map((r) => ({
      row: r.row,
      plan: { row: r.row, id: r.existing?.id ?? null, input: keepKey(r.input, r.existing, 'name') },
    })),

  async write(ctx, plans) {
    let inserted = 0;
    let updated = 0;
    for (const p of plans) {
      const done = await ctx.attempt(p.row, async () => {
        if (p.id === null) await insertPayerRecord(ctx.db, ctx.actor, p.input);
        else await applyPayerUpdate(ctx.db, ctx.actor, p.id, p.input as PayerUpdate);
        return true;
      });
      if (done && p.id === null) inserted += 1;
      else if (done) updated += 1;
    }
    return { inserted, updated };
  },

  filters: { type: oneOf(PAYER_TYPES), status: oneOf(PAYER_STATUSES) },
  async *exportPages(db, organizationId, q) {
    const type = q.where.type as (typeof PAYER_TYPES)[number] | undefined;
    const status = q.where.status as (typeof PAYER_STATUSES)[number] | undefined;
    for (let page = 1; ; page += 1) {
      const r = await listPayers(db, organizationId, { page, limit: 200, type, status });
      if (r.payers.length)
        yield r.payers.map((p) => Object.fromEntries(columns.map((c) => [c.name, p[c.name as keyof typeof p]])));
      if (!r.hasNextPage) return;
    }
  },
};
