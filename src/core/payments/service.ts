import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { NotFoundError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type {
  AdvanceUse,
  LedgerEntry,
  LedgerListQuery,
  LedgerPaymentCreate,
  LedgerSummary,
  RefundCreate,
} from '../../shared/schemas/payments.js';
import { findPatient } from '../patients/repository.js';
import { organizationTimezone } from '../settings/service.js';
import { recordPayment, refundPayment, useAdvance } from './ledger.js';
import { bounceCheque, clearCheque } from './cheques.js';
import {
  applyLedgerFilters,
  ledgerQuery,
  patientAdvancePaise,
  selectLedgerColumns,
  type LedgerRow,
} from './repository.js';
import { onPage } from '../db/paging.js';

const rupees = (paise: number) => Number(paise) / 100;

export function toLedgerEntry(r: LedgerRow): LedgerEntry {
  return {
    id: r.id,
    payment_number: `PAY-${String(r.id).padStart(6, '0')}`,
    kind: r.kind,
    bill_id: r.bill_id,
    bill_number: r.bill_number,
    patient_id: r.patient_id,
    patient_name: r.patient_name.trim() || 'Unknown Patient',
    patient_code: r.patient_code ?? null,
    amount: rupees(r.amount_paise),
    advance_amount: rupees(r.advance_paise),
    refunded_amount: rupees(r.refunded_paise),
    method: r.method,
    status: r.status,
    reference: r.reference,
    bank: r.bank,
    reason: r.reason,
    refund_of: r.refund_of,
    payment_date: r.value_date,
    processed_by: r.received_by,
    processed_by_name: r.processed_by_name,
    settled_at: r.settled_at,
    created_at: r.created_at,
  };
}

async function bounds(db: Db, organizationId: number, q: { from?: string; to?: string }) {
  if (!q.from && !q.to) return {};
  const timeZone = await organizationTimezone(db, organizationId);
  return {
    fromUtc: q.from ? startOfLocalDayUtc(timeZone, q.from).toISOString() : undefined,
    toUtc: q.to ? startOfLocalDayUtc(timeZone, addDays(q.to, 1)).toISOString() : undefined,
  };
}

export async function listLedger(db: Db, organizationId: number, q: LedgerListQuery) {
  const filtered = applyLedgerFilters(ledgerQuery(db, organizationId), q, await bounds(db, organizationId, q));
  const { n } = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await selectLedgerColumns(filtered)
    .orderBy('pay.created_at', 'desc')
    .orderBy('pay.id', 'desc')
    .$call(onPage(q))
    .execute();
  return { payments: rows.map(toLedgerEntry), ...pageEnvelope(Number(n), q.page, q.limit) };
}

/** Totals of the rows the list's filters select (all pages): received, refunded, net, pending and failed. */
export async function ledgerSummary(db: Db, organizationId: number, q: LedgerListQuery): Promise<LedgerSummary> {
  const rows = await applyLedgerFilters(ledgerQuery(db, organizationId), q, await bounds(db, organizationId, q))
    .select(['pay.kind', 'pay.status', 'pay.method', 'pay.amount_paise'])
    .execute();
  let received = 0;
  let refunded = 0;
  let pending = 0;
  let failed = 0;
  const byMethod = new Map<string, { amount: number; count: number }>();
  for (const r of rows) {
    const amount = Number(r.amount_paise);
    // An advance spent or returned moves no money: it was counted when it came in.
    if (r.kind === 'advance') continue;
    if (r.status === 'pending') pending += amount;
    else if (r.status === 'failed') failed += amount;
    else if (r.kind === 'refund') refunded += -amount;
    else {
      received += amount;
      const m = byMethod.get(r.method) ?? { amount: 0, count: 0 };
      m.amount += amount;
      m.count += 1;
      byMethod.set(r.method, m);
    }
  }
  return {
    received: rupees(received),
    refunded: rupees(refunded),
    net: rupees(received - refunded),
    pending: rupees(pending),
    failed: rupees(failed),
    count: rows.length,
    by_method: [...byMethod].map(([method, m]) => ({ method, amount: rupees(m.amount), count: m.count })),
  };
}

export async function getLedgerEntry(db: Db, organizationId: number, id: number): Promise<LedgerEntry> {
  const row = await selectLedgerColumns(ledgerQuery(db, organizationId).where('pay.id', '=', id)).executeTakeFirst();
  if (!row) throw new NotFoundError('Payment', id);
  return toLedgerEntry(row);
}

export async function createLedgerPayment(db: Db, actor: Actor, body: LedgerPaymentCreate): Promise<LedgerEntry> {
  const row = await db.transaction().execute((trx) =>
    recordPayment(
      trx,
      actor,
      body.bill_id,
      {
        amountPaise: rupeesToPaise(body.amount),
        method: body.method,
        reference: body.reference ?? null,
        bank: body.method === 'cheque' ? (body.bank ?? null) : null,
        advance: body.advance,
        reason: body.notes ?? null,
      },
      { billField: 'bill_id' },
    ),
  );
  return getLedgerEntry(db, actor.organizationId, row.id);
}

export async function useLedgerAdvance(db: Db, actor: Actor, body: AdvanceUse): Promise<LedgerEntry> {
  const row = await db
    .transaction()
    .execute((trx) => useAdvance(trx, actor, body.bill_id, rupeesToPaise(body.amount), body.notes ?? null));
  return getLedgerEntry(db, actor.organizationId, row.id);
}

export async function refundLedgerPayment(db: Db, actor: Actor, id: number, body: RefundCreate): Promise<LedgerEntry> {
  const row = await db.transaction().execute((trx) =>
    refundPayment(trx, actor, id, {
      amountPaise: rupeesToPaise(body.amount),
      reason: body.reason,
      method: body.method,
    }),
  );
  return getLedgerEntry(db, actor.organizationId, row.id);
}

export async function clearLedgerCheque(db: Db, actor: Actor, id: number): Promise<LedgerEntry> {
  await db.transaction().execute((trx) => clearCheque(trx, actor, id));
  return getLedgerEntry(db, actor.organizationId, id);
}

export async function bounceLedgerCheque(db: Db, actor: Actor, id: number, reason: string): Promise<LedgerEntry> {
  await db.transaction().execute((trx) => bounceCheque(trx, actor, id, reason));
  return getLedgerEntry(db, actor.organizationId, id);
}

export async function patientAdvance(db: Db, organizationId: number, patientId: number) {
  const patient = await findPatient(db, organizationId, patientId);
  if (!patient) throw new NotFoundError('Patient', patientId);
  return { patient_id: patientId, advance: rupees(await patientAdvancePaise(db, organizationId, patientId)) };
}

export { recordBillRefund, recordPayment } from './ledger.js';
