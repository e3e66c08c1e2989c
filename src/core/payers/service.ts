import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { findItem } from '../catalogue/repository.js';
import { formatInr, rupeesToPaise } from '../../shared/money.js';
import { PAYMENT_METHOD_LABELS, percentOf, type PaymentMethod } from '../../shared/billing.js';
import { GST_STATES, GSTIN_STATE_MISMATCH, gstinFitsState, stateOfGstin } from '../../shared/gst.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';
import { organizationTimezone } from '../settings/service.js';

export { payerState, taxParties } from './parties.js';
import type {
  Payer,
  PayerCreate,
  PayerListQuery,
  PayerPrice,
  PayerPriceCreate,
  PayerStatement,
  PayerUpdate,
} from '../../shared/schemas/payers.js';
import {
  deletePayerPriceRow,
  deletePayerRow,
  findPayerPriceRow,
  findPayerRow,
  insertPayerPriceRow,
  insertPayerRow,
  listPayerRows,
  payerBalanceBefore,
  payerBillsBetween,
  payerNameTaken,
  payerPaymentsBetween,
  payerPriceOn,
  payerPriceRows,
  payerUsage,
  samePriceStart,
  updatePayerPriceRow,
  updatePayerRow,
  type PayerRow,
} from './repository.js';

/**
 * Payers: corporate clients, insurers/TPAs, referring hospitals and collection centres.
 * A bill charged to a payer goes whole on the payer's account (docs/decisions.md "Payers").
 */

export function toPayer(r: PayerRow): Payer {
  return {
    id: r.id,
    name: r.name,
    type: r.type as Payer['type'],
    gstin: r.gstin,
    address: r.address,
    state_code: r.state_code,
    state: r.state_code ? (GST_STATES[r.state_code] ?? null) : null,
    contact_person: r.contact_person,
    phone: r.phone,
    email: r.email,
    credit_limit: r.credit_limit_paise === null ? null : r.credit_limit_paise / 100,
    payment_terms_days: r.payment_terms_days,
    discount_percent: Number(r.discount_percent),
    status: r.status as Payer['status'],
    balance: r.balance_paise / 100,
    bills: r.bill_count,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

async function mustFind(db: Db, organizationId: number, id: number): Promise<PayerRow> {
  const r = await findPayerRow(db, organizationId, id);
  if (!r) throw new NotFoundError('Payer', id);
  return r;
}

/** "Bank Transfer", as the screens and the invoice say it; an unknown method as stored. */
const methodName = (m: string) => PAYMENT_METHOD_LABELS[m as PaymentMethod] ?? m;

export async function getPayer(db: Db, organizationId: number, id: number): Promise<Payer> {
  return toPayer(await mustFind(db, organizationId, id));
}

export async function listPayers(db: Db, organizationId: number, q: PayerListQuery) {
  const { total, rows } = await listPayerRows(db, organizationId, q);
  return { payers: rows.map(toPayer), ...pageEnvelope(total, q.page, q.limit) };
}

function columnsOf(input: PayerUpdate) {
  const c: Record<string, unknown> = {};
  for (const k of [
    'name',
    'type',
    'gstin',
    'address',
    'contact_person',
    'phone',
    'email',
    'payment_terms_days',
    'discount_percent',
    'status',
  ] as const)
    if (input[k] !== undefined) c[k] = input[k] ?? null;
  if (input.state_code !== undefined) c.state_code = input.state_code ?? null;
  if (input.credit_limit !== undefined)
    c.credit_limit_paise = input.credit_limit === null ? null : rupeesToPaise(input.credit_limit);
  return c;
}

/** Inside an open transaction: a new payer, audited (an import adds many). */
export async function insertPayerRecord(trx: Db, actor: Actor, input: PayerCreate): Promise<number> {
  if (await payerNameTaken(trx, actor.organizationId, input.name))
    throw new ConflictError(`A payer named ${input.name} already exists`, 'PAYER_EXISTS');
  const now = nowIso();
  const row = await insertPayerRow(trx, {
    organization_id: actor.organizationId,
    name: input.name,
    type: input.type,
    gstin: input.gstin ?? null,
    address: input.address ?? null,
    state_code: input.state_code ?? stateOfGstin(input.gstin),
    contact_person: input.contact_person ?? null,
    phone: input.phone ?? null,
    email: input.email ?? null,
    credit_limit_paise: input.credit_limit == null ? null : rupeesToPaise(input.credit_limit),
    payment_terms_days: input.payment_terms_days,
    discount_percent: input.discount_percent,
    status: input.status,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, { action: 'create', entity: 'payer', entityId: row.id, newValues: row });
  return row.id;
}

export async function createPayer(db: Db, actor: Actor, input: PayerCreate): Promise<Payer> {
  const id = await db.transaction().execute((trx) => insertPayerRecord(trx, actor, input));
  return getPayer(db, actor.organizationId, id);
}

/** Inside an open transaction: changes the given fields of a payer, audited. */
export async function applyPayerUpdate(trx: Db, actor: Actor, id: number, input: PayerUpdate): Promise<void> {
  const before = await mustFind(trx, actor.organizationId, id);
  if (input.name && (await payerNameTaken(trx, actor.organizationId, input.name, id)))
    throw new ConflictError(`A payer named ${input.name} already exists`, 'PAYER_EXISTS');
  const patch = columnsOf(input);
  const gstin = input.gstin !== undefined ? input.gstin : before.gstin;
  if (input.gstin && input.state_code === undefined) patch.state_code = stateOfGstin(input.gstin);
  const state = (patch.state_code as string | null | undefined) ?? before.state_code;
  if (!gstinFitsState(gstin, state)) throw ValidationError.field('state_code', GSTIN_STATE_MISMATCH);
  const { oldValues, newValues } = diff(before as unknown as Record<string, unknown>, patch);
  if (!Object.keys(newValues).length) return;
  await updatePayerRow(trx, actor.organizationId, id, { ...patch, updated_at: nowIso() });
  await writeAudit(trx, actor, { action: 'update', entity: 'payer', entityId: id, oldValues, newValues });
}

export async function updatePayer(db: Db, actor: Actor, id: number, input: PayerUpdate): Promise<Payer> {
  await db.transaction().execute((trx) => applyPayerUpdate(trx, actor, id, input));
  return getPayer(db, actor.organizationId, id);
}

/** Erases a payer nothing refers to; once a bill or invoice names it, 409 (set it inactive instead). */
export async function deletePayer(db: Db, actor: Actor, id: number): Promise<Payer> {
  return db.transaction().execute(async (trx) => {
    const before = await mustFind(trx, actor.organizationId, id);
    if ((await payerUsage(trx, actor.organizationId, id)) > 0)
      throw new ConflictError(`${before.name} has bills or invoices; set it inactive instead`, 'PAYER_IN_USE');
    for (const p of await payerPriceRows(trx, actor.organizationId, id))
      await deletePayerPriceRow(trx, actor.organizationId, p.id);
    await deletePayerRow(trx, actor.organizationId, id);
    await writeAudit(trx, actor, { action: 'delete', entity: 'payer', entityId: id, oldValues: before });
    return toPayer(before);
  });
}

// Price list

export async function listPayerPrices(db: Db, organizationId: number, payerId: number): Promise<PayerPrice[]> {
  await mustFind(db, organizationId, payerId);
  return (await payerPriceRows(db, organizationId, payerId)).map((r) => ({
    id: r.id,
    payer_id: r.payer_id,
    item_type: r.item_type as PayerPrice['item_type'],
    item_id: r.item_id,
    item_name: r.item_name,
    item_code: r.item_code,
    lab_price: r.lab_price_paise / 100,
    price: r.price_paise / 100,
    effective_from: r.effective_from,
    effective_to: r.effective_to,
  }));
}

const ITEM_TABLE = { test: 'tests', profile: 'test_profiles', package: 'test_packages' } as const;

/**
 * Inside an open transaction: a new entry of a payer's price list, audited (the screen adds one,
 * an import many). A second price of the same item from the same day is refused.
 */
export async function insertPayerPriceRecord(
  trx: Db,
  actor: Actor,
  payerId: number,
  input: PayerPriceCreate,
): Promise<number> {
  await mustFind(trx, actor.organizationId, payerId);
  const item = await findItem<{ id: number; name: string }>(
    trx,
    ITEM_TABLE[input.item_type],
    actor.organizationId,
    input.item_id,
  );
  if (!item) throw ValidationError.field('item_id', `Unknown ${input.item_type} ${input.item_id}`);
  if (await samePriceStart(trx, payerId, input.item_type, input.item_id, input.effective_from))
    throw new ConflictError(
      `${item.name} already has a price from ${input.effective_from} for this payer`,
      'PRICE_EXISTS',
    );
  const row = await insertPayerPriceRow(trx, {
    organization_id: actor.organizationId,
    payer_id: payerId,
    item_type: input.item_type,
    item_id: input.item_id,
    price_paise: rupeesToPaise(input.price),
    effective_from: input.effective_from,
    effective_to: input.effective_to ?? null,
    created_at: nowIso(),
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'payer_price',
    entityId: row.id,
    newValues: { ...row, item_name: item.name },
  });
  return row.id;
}

export async function addPayerPrice(
  db: Db,
  actor: Actor,
  payerId: number,
  input: PayerPriceCreate,
): Promise<PayerPrice[]> {
  await db.transaction().execute((trx) => insertPayerPriceRecord(trx, actor, payerId, input));
  return listPayerPrices(db, actor.organizationId, payerId);
}

/**
 * Inside an open transaction: changes the price or the end of one price list entry (an import's
 * --update; the item and the start day are what name the entry), audited.
 */
export async function applyPayerPriceUpdate(
  trx: Db,
  actor: Actor,
  payerId: number,
  priceId: number,
  input: { price?: number; effective_to?: string | null },
): Promise<void> {
  const before = await findPayerPriceRow(trx, actor.organizationId, payerId, priceId);
  if (!before) throw new NotFoundError('Payer price', priceId);
  const patch: { price_paise?: number; effective_to?: string | null } = {};
  if (input.price !== undefined) patch.price_paise = rupeesToPaise(input.price);
  if (input.effective_to !== undefined) patch.effective_to = input.effective_to;
  if (patch.effective_to && patch.effective_to < before.effective_from)
    throw ValidationError.field('effective_to', 'effective_to must be on or after effective_from');
  const { oldValues, newValues } = diff(before as unknown as Record<string, unknown>, patch);
  if (!Object.keys(newValues).length) return;
  await updatePayerPriceRow(trx, actor.organizationId, priceId, patch);
  await writeAudit(trx, actor, { action: 'update', entity: 'payer_price', entityId: priceId, oldValues, newValues });
}

export async function removePayerPrice(db: Db, actor: Actor, payerId: number, priceId: number): Promise<PayerPrice[]> {
  await db.transaction().execute(async (trx) => {
    await mustFind(trx, actor.organizationId, payerId);
    const row = await findPayerPriceRow(trx, actor.organizationId, payerId, priceId);
    if (!row) throw new NotFoundError('Payer price', priceId);
    await deletePayerPriceRow(trx, actor.organizationId, priceId);
    await writeAudit(trx, actor, { action: 'delete', entity: 'payer_price', entityId: priceId, oldValues: row });
  });
  return listPayerPrices(db, actor.organizationId, payerId);
}

// Billing: the payer's price and credit limit

/** The unit price a payer is charged for an item on a date: its list, else the lab's price less its discount. */
export async function payerUnitPrice(
  db: Db,
  payer: PayerRow,
  itemType: string,
  itemId: number,
  labPricePaise: number,
  date: string,
): Promise<number> {
  const listed = await payerPriceOn(db, payer.organization_id, payer.id, itemType, itemId, date);
  if (listed !== null) return listed;
  return labPricePaise - percentOf(labPricePaise, Number(payer.discount_percent));
}

/** The active payer a bill is charged to; 400 naming payer_id when unknown or inactive. */
export async function payerForBill(db: Db, organizationId: number, payerId: number): Promise<PayerRow> {
  const p = await findPayerRow(db, organizationId, payerId);
  if (!p) throw ValidationError.field('payer_id', `Unknown payer ${payerId}`);
  if (p.status !== 'active') throw ValidationError.field('payer_id', `${p.name} is inactive and cannot be billed`);
  return p;
}

/** Refuses (409, with the figures) a bill that would take the payer past its credit limit. */
export function assertWithinCredit(p: PayerRow, billPaise: number): void {
  if (p.credit_limit_paise === null) return;
  if (p.balance_paise + billPaise > p.credit_limit_paise) {
    const room = Math.max(0, p.credit_limit_paise - p.balance_paise);
    throw new ConflictError(
      `${p.name} owes ${formatInr(p.balance_paise)} of its ${formatInr(p.credit_limit_paise)} credit limit; this bill of ${formatInr(billPaise)} would pass it by ${formatInr(p.balance_paise + billPaise - p.credit_limit_paise)} (room left: ${formatInr(room)})`,
      'CREDIT_LIMIT_EXCEEDED',
    );
  }
}

// Statement

export async function payerStatement(
  db: Db,
  organizationId: number,
  payerId: number,
  from: string,
  to: string,
): Promise<PayerStatement> {
  const payer = await mustFind(db, organizationId, payerId);
  const tz = await organizationTimezone(db, organizationId);
  const fromIso = startOfLocalDayUtc(tz, from).toISOString();
  const toIso = startOfLocalDayUtc(tz, addDays(to, 1)).toISOString();
  const opening = await payerBalanceBefore(db, organizationId, payerId, fromIso);
  const bills = await payerBillsBetween(db, organizationId, payerId, fromIso, toIso);
  const payments = await payerPaymentsBetween(db, organizationId, payerId, fromIso, toIso);
  const events = [
    ...bills.map((b) => ({
      at: b.created_at,
      kind: 'bill' as const,
      reference: b.bill_number,
      description: `Bill for patient ${b.patient_code}`,
      debit: b.final_amount_paise,
      credit: 0,
    })),
    ...payments.map((p) => ({
      at: p.created_at,
      kind: 'payment' as const,
      reference: p.bill_number,
      description:
        p.amount_paise < 0
          ? `Refund (${methodName(p.method)})`
          : `Payment (${methodName(p.method)}${p.reference ? ` ${p.reference}` : ''})`,
      debit: p.amount_paise < 0 ? -p.amount_paise : 0,
      credit: p.amount_paise > 0 ? p.amount_paise : 0,
    })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  let balance = opening;
  const entries = events.map((e) => {
    balance += e.debit - e.credit;
    return {
      date: e.at,
      kind: e.kind,
      reference: e.reference,
      description: e.description,
      debit: e.debit / 100,
      credit: e.credit / 100,
      balance: balance / 100,
    };
  });
  const billed = bills.reduce((s, b) => s + b.final_amount_paise, 0);
  const paid = payments.reduce((s, p) => s + p.amount_paise, 0);
  return {
    payer: toPayer(payer),
    from,
    to,
    opening_balance: opening / 100,
    billed: billed / 100,
    paid: paid / 100,
    closing_balance: balance / 100,
    entries,
  };
}
