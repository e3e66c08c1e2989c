import { z } from 'zod';
import {
  PRICE_ITEM_TYPES,
  payerPriceFields,
  pricePeriodCheck,
  pricePeriodError,
  type PayerPriceCreate,
} from '../../../shared/schemas/payers.js';
import { requiredText } from '../../../shared/schemas/common.js';
import { applyPayerPriceUpdate, insertPayerPriceRecord, listPayers } from '../../payers/service.js';
import { payerRowsByNames, pricesOfPayers } from '../../payers/repository.js';
import type { EntityError, TransferColumn, TransferEntity } from '../entity.js';
import { catalogueItemsNamed, lowerKey, oneOf, upperKey } from './common.js';

/**
 * Payers' price lists (the agreed prices, in import and export): one row per entry, keyed by
 * the payer (its name), the item (type and code) and the day the price starts. The payer and the
 * item must be in the lab (import payers and the test menu first). Stored and changed through the
 * payers feature's own functions, audited per row; --update changes an entry's price and its end.
 * The item's name and the lab's own price are exported for reading and ignored on import.
 */

const columns: TransferColumn[] = [
  { name: 'payer_name' },
  { name: 'item_type' },
  { name: 'item_code' },
  { name: 'item_name', readOnly: true },
  { name: 'lab_price', kind: 'number', readOnly: true },
  { name: 'price', kind: 'number' },
  { name: 'effective_from', kind: 'date' },
  { name: 'effective_to', kind: 'date' },
];

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const fields = {
  payer_name: requiredText('The payer (payer_name)', 120),
  item_type: z.preprocess(blank, payerPriceFields.item_type.default('test')),
  item_code: requiredText('The item code (item_code)', 30).transform(upperKey),
  price: payerPriceFields.price,
  effective_from: payerPriceFields.effective_from,
  effective_to: payerPriceFields.effective_to,
};
const createSchema = z.object(fields).refine(pricePeriodCheck, pricePeriodError);
type Input = z.infer<typeof createSchema>;
const updateSchema = z.object(fields).partial().refine(pricePeriodCheck, pricePeriodError);

/** The parts of a key, joined so that a message quoting it reads well. */
const SEP = ' | ';
const keyOf = (v: Record<string, unknown>): string | null => {
  const { payer_name: payer, item_type: type, item_code: code, effective_from: from } = v;
  if (typeof payer !== 'string' || typeof code !== 'string' || typeof from !== 'string') return null;
  if (!payer.trim() || !code.trim() || !from.trim()) return null;
  const t = typeof type === 'string' && type.trim() ? type.trim().toLowerCase() : 'test';
  return [lowerKey(payer), t, upperKey(code), from.trim()].join(SEP);
};
function partsOf(key: string) {
  const parts = key.split(SEP);
  const from = parts.pop()!;
  const code = parts.pop()!;
  const type = parts.pop()!;
  return { payer: parts.join(SEP), type, code, from };
}

interface Existing {
  id: number;
}
interface Plan {
  row: number;
  id: number | null;
  payerId: number;
  input: PayerPriceCreate;
}

export const payerPrices: TransferEntity<Input, Existing, Plan> = {
  name: 'payer_prices',
  label: 'payer price',
  auditEntity: 'payer_price',
  columns,
  key: 'item_code',
  keyOf,
  normalizeKey: upperKey,
  requiredColumns: ['payer_name', 'item_code', 'price', 'effective_from'],
  createSchema,
  updateSchema: updateSchema as z.ZodType<Partial<Input>>,

  async findExisting(ctx, keys) {
    const wanted = keys.map(partsOf);
    const payers = await payerRowsByNames(ctx.db, ctx.organizationId, [...new Set(wanted.map((w) => w.payer))]);
    const stored = await pricesOfPayers(
      ctx.db,
      ctx.organizationId,
      [...payers.values()].map((p) => p.id),
    );
    const names = new Map([...payers.values()].map((p) => [p.id, p.name.toLowerCase()]));
    const byKey = new Map<string, Existing>();
    for (const s of stored)
      if (s.item_code)
        byKey.set([names.get(s.payer_id), s.item_type, s.item_code.toUpperCase(), s.effective_from].join(SEP), {
          id: s.id,
        });
    const out = new Map<string, Existing>();
    for (const k of keys) {
      const found = byKey.get(k);
      if (found) out.set(k, found);
    }
    return out;
  },

  async plan(ctx, rows) {
    const keys = rows.map((r) => keyOf(r.input as unknown as Record<string, unknown>)!);
    const wanted = keys.map(partsOf);
    const payers = await payerRowsByNames(ctx.db, ctx.organizationId, [...new Set(wanted.map((w) => w.payer))]);
    const items = await catalogueItemsNamed<{ id: number; code: string }>(ctx.db, ctx.organizationId, wanted);
    return rows.map((r, i) => {
      const w = wanted[i]!;
      const errors: EntityError[] = [];
      const payer = payers.get(w.payer);
      if (!payer)
        errors.push({
          column: 'payer_name',
          message: `no payer named ${r.input.payer_name} in this lab (import the payers first)`,
        });
      const item = items.get(`${w.type}:${w.code}`);
      if (!item) errors.push({ column: 'item_code', message: `no ${w.type} with code ${w.code} in the catalogue` });
      if (errors.length) return { row: r.row, errors };
      const x = r.input;
      return {
        row: r.row,
        plan: {
          row: r.row,
          id: r.existing?.id ?? null,
          payerId: payer!.id,
          input: {
            item_type: w.type as PayerPriceCreate['item_type'],
            item_id: item!.id,
            price: x.price,
            effective_from: w.from,
            effective_to: x.effective_to,
          },
        },
      };
    });
  },

  async write(ctx, plans) {
    let inserted = 0;
    let updated = 0;
    for (const p of plans) {
      const done = await ctx.attempt(p.row, async () => {
        if (p.id === null) await insertPayerPriceRecord(ctx.db, ctx.actor, p.payerId, p.input);
        else await applyPayerPriceUpdate(ctx.db, ctx.actor, p.payerId, p.id, p.input);
        return true;
      });
      if (done && p.id === null) inserted += 1;
      else if (done) updated += 1;
    }
    return { inserted, updated };
  },

  filters: {
    payer_name: z.string().trim().min(1).max(120).transform(lowerKey),
    item_type: oneOf(PRICE_ITEM_TYPES),
  },
  async *exportPages(db, organizationId, q) {
    for (let page = 1; ; page += 1) {
      const r = await listPayers(db, organizationId, { page, limit: 200 });
      const only = typeof q.where.payer_name === 'string' ? lowerKey(q.where.payer_name) : undefined;
      const payers = r.payers.filter((p) => !only || p.name.toLowerCase() === only);
      const prices = await pricesOfPayers(
        db,
        organizationId,
        payers.map((p) => p.id),
      );
      const records = payers.flatMap((p) =>
        prices
          .filter((x) => x.payer_id === p.id && (!q.where.item_type || x.item_type === q.where.item_type))
          .sort(
            (a, b) =>
              PRICE_ITEM_TYPES.indexOf(a.item_type as 'test') - PRICE_ITEM_TYPES.indexOf(b.item_type as 'test') ||
              String(a.item_code).localeCompare(String(b.item_code)) ||
              a.effective_from.localeCompare(b.effective_from),
          )
          .map((x) => ({
            payer_name: p.name,
            item_type: x.item_type,
            item_code: x.item_code,
            item_name: x.item_name,
            lab_price: x.lab_price_paise === null ? null : Number(x.lab_price_paise) / 100,
            price: x.price_paise / 100,
            effective_from: x.effective_from,
            effective_to: x.effective_to,
          })),
      );
      if (records.length) yield records;
      if (!r.hasNextPage) return;
    }
  },
};
