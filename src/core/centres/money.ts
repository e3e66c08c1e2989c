import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { payerStatement } from '../payers/service.js';
import { recordPayment } from '../payments/service.js';
import { formatInr, rupeesToPaise } from '../../shared/money.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';
import type { PaymentMethod } from '../../shared/billing.js';
import type { CentreBill, CentreReceipt, CentreReceiptCreate, CentreStatement } from '../../shared/schemas/centres.js';
import { labToday, organizationTimezone } from '../settings/service.js';
import { centreHold, daysFrom } from './hold.js';
import { toCentre, toCentreBillMoney } from './mappers.js';
import { mustFindCentre } from './service.js';
import {
  allocationRows,
  billLinesBetween,
  billsOwedAt,
  insertAllocationRow,
  insertReceiptRow,
  receiptRows,
  shareRuleRows,
  unpaidBillsOfPayer,
  type CentreRow,
} from './repository.js';

/**
 * A centre's money: its unpaid bills, the payments it makes against its statement (each split into
 * payment rows on the bills it settles), and the monthly statement with ageing and the share. Every
 * figure is summed from the bill and payment rows, in paise.
 */

export async function centreBills(db: Db, organizationId: number, centreId: number): Promise<CentreBill[]> {
  const centre = await mustFindCentre(db, organizationId, centreId);
  const today = await labToday(db, organizationId);
  return (await unpaidBillsOfPayer(db, organizationId, centre.payer_id)).map((b) => ({
    ...toCentreBillMoney(b),
    due: (b.final_amount_paise - b.paid_paise) / 100,
    days_overdue: b.due_date < today ? daysFrom(b.due_date, today) : 0,
  }));
}

/**
 * Money a centre paid against its statement: settles the named bills in the order given, else its
 * unpaid bills oldest first; each share is a payment on that bill (so the bill, the day's takings
 * and the statement see it). More than the bills owe is refused: a centre's advance is not kept.
 */
export async function receiveCentrePayment(
  db: Db,
  actor: Actor,
  centreId: number,
  input: CentreReceiptCreate,
): Promise<CentreReceipt> {
  const id = await db.transaction().execute(async (trx) => {
    const centre = await mustFindCentre(trx, actor.organizationId, centreId);
    const unpaid = await unpaidBillsOfPayer(trx, actor.organizationId, centre.payer_id);
    let bills = unpaid;
    if (input.bill_ids?.length) {
      const byId = new Map(unpaid.map((b) => [b.id, b]));
      bills = input.bill_ids.map((billId, i) => {
        const b = byId.get(billId);
        if (!b) throw ValidationError.field(`bill_ids.${i}`, `Bill ${billId} is not an unpaid bill of ${centre.name}`);
        return b;
      });
      if (new Set(input.bill_ids).size !== input.bill_ids.length)
        throw ValidationError.field('bill_ids', 'bill_ids names a bill twice');
    }
    const amount = rupeesToPaise(input.amount);
    const owed = bills.reduce((s, b) => s + b.final_amount_paise - b.paid_paise, 0);
    if (amount > owed)
      throw ValidationError.field(
        'amount',
        `Amount ${formatInr(amount)} is more than the ${formatInr(owed)} ${input.bill_ids?.length ? 'the named bills owe' : `${centre.name} owes`}`,
      );
    const receipt = await insertReceiptRow(trx, {
      organization_id: actor.organizationId,
      centre_id: centreId,
      amount_paise: amount,
      method: input.method,
      reference: input.reference ?? null,
      created_by: actor.userId,
      created_at: nowIso(),
    });
    let left = amount;
    const allocations: { bill_id: number; amount_paise: number }[] = [];
    for (const b of bills) {
      if (left <= 0) break;
      const share = Math.min(left, b.final_amount_paise - b.paid_paise);
      const payment = await recordPayment(trx, actor, b.id, {
        amountPaise: share,
        method: input.method as PaymentMethod,
        reference: input.reference ?? `Centre receipt ${receipt.id}`,
        bank: null,
        advance: false,
        reason: null,
      });
      await insertAllocationRow(trx, {
        receipt_id: receipt.id,
        bill_id: b.id,
        payment_id: payment.id,
        amount_paise: share,
      });
      allocations.push({ bill_id: b.id, amount_paise: share });
      left -= share;
    }
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'centre_receipt',
      entityId: receipt.id,
      newValues: { ...receipt, allocations },
    });
    return receipt.id;
  });
  return (await centreReceipts(db, actor.organizationId, centreId)).find((r) => r.id === id)!;
}

export async function centreReceipts(db: Db, organizationId: number, centreId: number): Promise<CentreReceipt[]> {
  await mustFindCentre(db, organizationId, centreId);
  const receipts = await receiptRows(db, organizationId, centreId);
  const allocs = await allocationRows(
    db,
    receipts.map((r) => r.id),
  );
  return receipts.map((r) => ({
    id: r.id,
    amount: r.amount_paise / 100,
    method: r.method,
    reference: r.reference,
    created_at: r.created_at,
    allocations: allocs
      .filter((a) => a.receipt_id === r.id)
      .map((a) => ({ bill_id: a.bill_id, bill_number: a.bill_number, amount: a.amount_paise / 100 })),
  }));
}

/** The centre's share of one line: its commission, or the line less the lab's share, in paise. */
export function centrePart(totalPaise: number, basis: string, bp: number): number {
  const part = Math.floor((totalPaise * bp + 5000) / 10000);
  return basis === 'lab_share' ? totalPaise - part : part;
}

/** The share rules of a centre as a look-up: a test's rule, else its category's, else the centre's. */
async function shareOf(db: Db, centre: CentreRow) {
  const rules = await shareRuleRows(db, centre.organization_id, centre.id);
  const byTest = new Map(rules.filter((r) => r.test_id).map((r) => [r.test_id!, r.share_bp]));
  const byCategory = new Map(rules.filter((r) => r.category).map((r) => [r.category!.toLowerCase(), r.share_bp]));
  return (testId: number | null, category: string | null) =>
    (testId !== null ? byTest.get(testId) : undefined) ??
    (category ? byCategory.get(category.toLowerCase()) : undefined) ??
    centre.share_bp;
}

type Bucket = keyof CentreStatement['ageing'];
function bucketOf(daysLate: number): Bucket {
  if (daysLate <= 0) return 'not_due';
  if (daysLate <= 30) return 'd1_30';
  if (daysLate <= 60) return 'd31_60';
  if (daysLate <= 90) return 'd61_90';
  return 'over_90';
}

/**
 * The statement of a period (lab days from..to): the payer's ledger (opening, bills, payments,
 * closing), what was owed at its end by how late each bill then was, and the share of its bills.
 */
export async function centreStatement(
  db: Db,
  organizationId: number,
  centreId: number,
  from: string,
  to: string,
): Promise<CentreStatement> {
  const centre = await mustFindCentre(db, organizationId, centreId);
  const ledger = await payerStatement(db, organizationId, centre.payer_id, from, to);
  const tz = await organizationTimezone(db, organizationId);
  const fromIso = startOfLocalDayUtc(tz, from).toISOString();
  const endIso = startOfLocalDayUtc(tz, addDays(to, 1)).toISOString();
  const ageing: Record<Bucket, number> = { not_due: 0, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0 };
  for (const b of await billsOwedAt(db, organizationId, centre.payer_id, endIso)) {
    const owed = b.final_amount_paise - Number(b.paid_paise);
    if (owed === 0) continue;
    ageing[bucketOf(daysFrom(b.due_date, to))] += owed;
  }
  const rule = await shareOf(db, centre);
  let billedPaise = 0;
  let centrePaise = 0;
  for (const l of await billLinesBetween(db, organizationId, centre.payer_id, fromIso, endIso)) {
    billedPaise += l.total_paise;
    centrePaise += centrePart(l.total_paise, centre.share_basis, rule(l.test_id, l.category));
  }
  return {
    centre: toCentre(centre, await centreHold(db, centre)),
    from,
    to,
    opening_balance: ledger.opening_balance,
    billed: ledger.billed,
    paid: ledger.paid,
    closing_balance: ledger.closing_balance,
    entries: ledger.entries,
    ageing: Object.fromEntries(Object.entries(ageing).map(([k, v]) => [k, v / 100])) as CentreStatement['ageing'],
    share: { billed: billedPaise / 100, centre: centrePaise / 100, lab: (billedPaise - centrePaise) / 100 },
  };
}
