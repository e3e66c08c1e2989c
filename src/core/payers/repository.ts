import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { billsOfPayer, labRows } from '../db/joins.js';
import { deleteLabRow, updateLabRow } from '../db/lab-row.js';
import { payerBillsMadeIn } from '../db/bill-joins.js';
import type { PayerPricesTable, PayersTable } from './tables.js';
import type { PayerListQuery } from '../../shared/schemas/payers.js';
import { onPage } from '../db/paging.js';

/** Every query of payers, their price lists and their accounts, always filtered by the lab. */

export type PayerRow = Selectable<PayersTable> & { balance_paise: number; bill_count: number };

/** What the payer owes: its bills that are not cancelled, less what was paid on them. */
function withBalance(db: Db, organizationId: number) {
  return db
    .selectFrom('payers as p')
    .where('p.organization_id', '=', organizationId)
    .selectAll('p')
    .select([
      sql<number>`coalesce((SELECT sum(b.final_amount_paise - b.paid_paise) FROM bills b WHERE b.organization_id = p.organization_id AND b.payer_id = p.id AND b.cancelled_at IS NULL), 0)`.as(
        'balance_paise',
      ),
      sql<number>`(SELECT count(*) FROM bills b WHERE b.organization_id = p.organization_id AND b.payer_id = p.id AND b.cancelled_at IS NULL)`.as(
        'bill_count',
      ),
    ]);
}

export async function findPayerRow(db: Db, organizationId: number, id: number): Promise<PayerRow | undefined> {
  const r = await withBalance(db, organizationId).where('p.id', '=', id).executeTakeFirst();
  return r ? { ...r, balance_paise: Number(r.balance_paise), bill_count: Number(r.bill_count) } : undefined;
}

/** The payers with these names (compared lower-case), keyed by the lower-case name: an import's look-up. */
export async function payerRowsByNames(
  db: Db,
  organizationId: number,
  names: string[],
): Promise<Map<string, PayerRow>> {
  if (!names.length) return new Map();
  const rows = await withBalance(db, organizationId)
    .where(
      sql<string>`lower(p.name)`,
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
  return new Map(
    rows.map((r) => [
      r.name.toLowerCase(),
      { ...r, balance_paise: Number(r.balance_paise), bill_count: Number(r.bill_count) },
    ]),
  );
}

export async function payerNameTaken(db: Db, organizationId: number, name: string, exceptId?: number) {
  let q = db
    .selectFrom('payers')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function listPayerRows(db: Db, organizationId: number, q: PayerListQuery) {
  let base = db.selectFrom('payers as p').where('p.organization_id', '=', organizationId);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(p.name)`, 'like', s),
        eb(sql`lower(coalesce(p.gstin, ''))`, 'like', s),
        eb(sql`lower(coalesce(p.contact_person, ''))`, 'like', s),
      ]),
    );
  }
  if (q.type) base = base.where('p.type', '=', q.type);
  if (q.status) base = base.where('p.status', '=', q.status);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const idRows = await base
    .select('p.id')
    .orderBy(sql`lower(p.name)`)
    .orderBy('p.id')
    .$call(onPage(q))
    .execute();
  const ids = idRows.map((r) => r.id);
  const rows = ids.length ? await withBalance(db, organizationId).where('p.id', 'in', ids).execute() : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    total: Number(n),
    rows: ids.map((id) => {
      const r = byId.get(id)!;
      return { ...r, balance_paise: Number(r.balance_paise), bill_count: Number(r.bill_count) };
    }),
  };
}

export function insertPayerRow(trx: Db, values: Insertable<PayersTable>) {
  return trx.insertInto('payers').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updatePayerRow(trx: Db, organizationId: number, id: number, values: Updateable<PayersTable>) {
  return updateLabRow(trx, 'payers', organizationId, id, values);
}

export function deletePayerRow(trx: Db, organizationId: number, id: number) {
  return deleteLabRow(trx, 'payers', organizationId, id);
}

export async function payerUsage(db: Db, organizationId: number, id: number): Promise<number> {
  let n = 0;
  // Bills first, then invoices: the two kinds of row that name a payer.
  for (const table of ['bills', 'invoices'] as const) {
    const r = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('payer_id', '=', id)
      .executeTakeFirstOrThrow();
    n += Number(r.n);
  }
  return n;
}

// Price lists

const ITEM_TABLE = { test: 'tests', profile: 'test_profiles', package: 'test_packages' } as const;

export async function payerPriceRows(db: Db, organizationId: number, payerId: number) {
  const rows = await labRows(db, 'payer_prices', organizationId)
    .where('payer_id', '=', payerId)
    .orderBy('item_type')
    .orderBy('item_id')
    .orderBy('effective_from', 'desc')
    .execute();
  const out = [];
  for (const r of rows) {
    const item = await db
      .selectFrom(ITEM_TABLE[r.item_type as keyof typeof ITEM_TABLE])
      .select(['name', 'code', 'price_paise'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', r.item_id)
      .executeTakeFirst();
    out.push({
      ...r,
      item_name: item?.name ?? '(removed)',
      item_code: item?.code ?? '',
      lab_price_paise: item?.price_paise ?? 0,
    });
  }
  return out;
}

export function findPayerPriceRow(db: Db, organizationId: number, payerId: number, id: number) {
  return labRows(db, 'payer_prices', organizationId)
    .where('payer_id', '=', payerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The payer's price list entries of one item (every start day it was priced from). */
function entriesOfItem(db: Db, payerId: number, itemType: string, itemId: number) {
  return db
    .selectFrom('payer_prices')
    .where('payer_id', '=', payerId)
    .where('item_type', '=', itemType)
    .where('item_id', '=', itemId);
}

export function samePriceStart(db: Db, payerId: number, itemType: string, itemId: number, from: string) {
  return entriesOfItem(db, payerId, itemType, itemId)
    .select('id')
    .where('effective_from', '=', from)
    .executeTakeFirst();
}

export function insertPayerPriceRow(trx: Db, values: Insertable<PayerPricesTable>) {
  return trx.insertInto('payer_prices').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updatePayerPriceRow(trx: Db, organizationId: number, id: number, patch: Updateable<PayerPricesTable>) {
  return updateLabRow(trx, 'payer_prices', organizationId, id, patch);
}

/** Every price list entry of these payers, with its item's code and name (for import and export). */
export function pricesOfPayers(db: Db, organizationId: number, payerIds: number[]) {
  return db
    .selectFrom('payer_prices as pp')
    .leftJoin('tests as t', (j) => j.onRef('t.id', '=', 'pp.item_id').on('pp.item_type', '=', 'test'))
    .leftJoin('test_profiles as tp', (j) => j.onRef('tp.id', '=', 'pp.item_id').on('pp.item_type', '=', 'profile'))
    .leftJoin('test_packages as tk', (j) => j.onRef('tk.id', '=', 'pp.item_id').on('pp.item_type', '=', 'package'))
    .select([
      'pp.id',
      'pp.payer_id',
      'pp.item_type',
      'pp.item_id',
      'pp.price_paise',
      'pp.effective_from',
      'pp.effective_to',
      (eb) => eb.fn.coalesce('t.code', 'tp.code', 'tk.code').as('item_code'),
      (eb) => eb.fn.coalesce('t.name', 'tp.name', 'tk.name').as('item_name'),
      (eb) => eb.fn.coalesce('t.price_paise', 'tp.price_paise', 'tk.price_paise').as('lab_price_paise'),
    ])
    .where('pp.organization_id', '=', organizationId)
    .where('pp.payer_id', 'in', payerIds.length ? payerIds : [0])
    .execute();
}

export function deletePayerPriceRow(trx: Db, organizationId: number, id: number) {
  return deleteLabRow(trx, 'payer_prices', organizationId, id);
}

/** The payer's price of an item on a date: the latest list entry in force then, if any. */
export async function payerPriceOn(
  db: Db,
  organizationId: number,
  payerId: number,
  itemType: string,
  itemId: number,
  date: string,
): Promise<number | null> {
  const r = await entriesOfItem(db, payerId, itemType, itemId)
    .select('price_paise')
    .where('organization_id', '=', organizationId)
    .where('effective_from', '<=', date)
    .where((eb) => eb.or([eb('effective_to', 'is', null), eb('effective_to', '>=', date)]))
    .orderBy('effective_from', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? r.price_paise : null;
}

// Statement

/** The payer's bills (not cancelled) created in [fromIso, toIso). */
export function payerBillsBetween(db: Db, organizationId: number, payerId: number, fromIso: string, toIso: string) {
  return payerBillsMadeIn(db, organizationId, payerId, fromIso, toIso)
    .innerJoin('patients as pt', 'pt.id', 'b.patient_id')
    .select(['b.id', 'b.bill_number', 'b.created_at', 'b.final_amount_paise', 'pt.patient_code'])
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute();
}

/** Payments (and refunds, negative) on the payer's bills that count on its account (`pm`, `b`). */
function paymentsOnPayerBills(db: Db, organizationId: number, payerId: number) {
  return db
    .selectFrom('payments as pm')
    .innerJoin('bills as b', 'b.id', 'pm.bill_id')
    .where('pm.organization_id', '=', organizationId)
    .where('b.payer_id', '=', payerId)
    .where('b.cancelled_at', 'is', null);
}

/** Payments (and refunds, negative) on the payer's bills, made in [fromIso, toIso). */
export function payerPaymentsBetween(db: Db, organizationId: number, payerId: number, fromIso: string, toIso: string) {
  return paymentsOnPayerBills(db, organizationId, payerId)
    .select(['pm.id', 'pm.created_at', 'pm.amount_paise', 'pm.method', 'pm.reference', 'b.bill_number'])
    .where('pm.created_at', '>=', fromIso)
    .where('pm.created_at', '<', toIso)
    .orderBy('pm.created_at')
    .orderBy('pm.id')
    .execute();
}

export async function payerBalanceBefore(db: Db, organizationId: number, payerId: number, beforeIso: string) {
  const billed = await billsOfPayer(db, organizationId, payerId)
    .select(sql<number>`coalesce(sum(b.final_amount_paise), 0)`.as('n'))
    .where('b.created_at', '<', beforeIso)
    .executeTakeFirstOrThrow();
  const paid = await paymentsOnPayerBills(db, organizationId, payerId)
    .select(sql<number>`coalesce(sum(pm.amount_paise), 0)`.as('n'))
    .where('pm.created_at', '<', beforeIso)
    .executeTakeFirstOrThrow();
  return Number(billed.n) - Number(paid.n);
}
