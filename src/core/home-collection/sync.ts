import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { DomainError } from '../errors.js';
import { createBillIn, recordBillPayment } from '../billing/service.js';
import { findBill } from '../billing/repository.js';
import { pendingSamplesOfBill, updateSampleRow } from '../samples/repository.js';
import { addHistory, useReservedBarcode } from '../samples/service.js';
import { paiseToRupees } from '../../shared/money.js';
import { OTP_ATTEMPTS } from '../../shared/home-collection.js';
import type { OpResult, SyncBody, VisitOp } from '../../shared/schemas/home-collection.js';
import type { HomeBookingsTable } from './tables.js';
import { otpHash, releasePlace } from './service.js';
import { tellPatient } from './notices.js';
import {
  bookingOwnRow,
  findBookingRow,
  findSyncOp,
  insertSyncOp,
  tubesOfBooking,
  updateBookingRow,
  updateTubeRow,
} from './repository.js';
import type { StoredLine } from './mappers.js';
import { IN_TRANSIT } from './tubes.js';

/**
 * The phone's queue, applied: each operation once, in the order sent, each in its own transaction
 * with the record of its outcome (home_sync_ops), so an operation sent again (the answer was lost,
 * the phone retried) answers what it answered the first time and changes nothing. An outcome is
 * applied, refused (a wrong visit code, money the bill does not owe) or a conflict (the visit was
 * cancelled at the desk, or given to another phlebotomist, while the phone was offline); a conflict
 * is also written on the booking, so the desk sees it.
 */

type BookingOwnRow = Selectable<HomeBookingsTable>;
type Outcome = Omit<OpResult, 'op_id'>;

const applied: Outcome = { outcome: 'applied', code: null, message: null };
const refused = (code: string, message: string): Outcome => ({ outcome: 'refused', code, message });
const conflict = (code: string, message: string): Outcome => ({ outcome: 'conflict', code, message });

export async function syncVisits(db: Db, actor: Actor, body: SyncBody): Promise<OpResult[]> {
  const out: OpResult[] = [];
  for (const op of body.ops) out.push({ op_id: op.op_id, ...(await applyOnce(db, actor, op)) });
  return out;
}

/** Keeps an operation's answer, so the phone sending it again gets the same one. */
function rememberOutcome(db: Db, actor: Actor, op: VisitOp, outcome: Outcome) {
  return insertSyncOp(db, {
    organization_id: actor.organizationId,
    user_id: actor.userId!,
    op_id: op.op_id,
    booking_id: op.booking_id,
    kind: op.kind,
    outcome: JSON.stringify(outcome),
    created_at: nowIso(),
  });
}

async function applyOnce(db: Db, actor: Actor, op: VisitOp): Promise<Outcome> {
  const org = actor.organizationId;
  const userId = actor.userId!;
  const seen = await findSyncOp(db, org, userId, op.op_id);
  if (seen) return JSON.parse(seen.outcome) as Outcome;
  try {
    return await db.transaction().execute(async (trx) => {
      const outcome = await apply(trx, actor, op);
      await rememberOutcome(trx, actor, op, outcome);
      if (outcome.outcome === 'conflict' && (await bookingOwnRow(trx, org, op.booking_id)))
        await updateBookingRow(trx, op.booking_id, { sync_conflict: `${op.kind}: ${outcome.message}` });
      return outcome;
    });
  } catch (err) {
    // The same operation applied by a parallel request in the meantime: its answer is this one's.
    const again = await findSyncOp(db, org, userId, op.op_id);
    if (again) return JSON.parse(again.outcome) as Outcome;
    if (!(err instanceof DomainError) || err.statusCode >= 500) throw err;
    // A rule of another feature said no (a payer over its credit, a payment above what is due).
    const outcome = refused(err.code, err.message);
    await rememberOutcome(db, actor, op, outcome);
    return outcome;
  }
}

const CLOSED: Record<string, string> = {
  cancelled: 'The visit was cancelled at the desk',
  no_show: 'The visit was marked a no-show at the desk',
  refused: 'The patient refused the draw',
  failed: 'The draw failed',
  collected: 'The tubes are already collected',
};

async function apply(trx: Db, actor: Actor, op: VisitOp): Promise<Outcome> {
  const b = await bookingOwnRow(trx, actor.organizationId, op.booking_id);
  if (!b) return conflict('NOT_FOUND', `Booking ${op.booking_id} does not exist`);
  if (b.phlebotomist_id !== actor.userId)
    return conflict('NOT_YOURS', `Visit ${b.booking_number} is no longer assigned to you`);
  const open = b.status === 'booked' || b.status === 'started';
  switch (op.kind) {
    case 'arrive':
      if (!open) return conflict(`VISIT_${b.status.toUpperCase()}`, CLOSED[b.status]!);
      await change(trx, actor, b, {
        arrived_at: op.at,
        latitude: op.latitude ?? null,
        longitude: op.longitude ?? null,
      });
      return applied;
    case 'start':
      return start(trx, actor, b, op.otp, op.at);
    case 'collect':
      return collect(trx, actor, b, op.tubes);
    case 'pay':
      return pay(trx, actor, b, op);
    case 'refuse':
    case 'fail': {
      if (!open) return conflict(`VISIT_${b.status.toUpperCase()}`, CLOSED[b.status]!);
      await releasePlace(trx, actor.organizationId, b);
      await change(trx, actor, b, { status: op.kind === 'refuse' ? 'refused' : 'failed', reason: op.reason });
      return applied;
    }
  }
}

async function change(trx: Db, actor: Actor, b: BookingOwnRow, patch: Partial<BookingOwnRow>): Promise<void> {
  await updateBookingRow(trx, b.id, { ...patch, updated_at: nowIso() });
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'home_booking',
    entityId: b.id,
    oldValues: Object.fromEntries(Object.keys(patch).map((k) => [k, b[k as keyof BookingOwnRow]])),
    newValues: patch,
  });
}

async function start(trx: Db, actor: Actor, b: BookingOwnRow, otp: string, at: string): Promise<Outcome> {
  if (b.status === 'started') return applied;
  if (b.status !== 'booked') return conflict(`VISIT_${b.status.toUpperCase()}`, CLOSED[b.status]!);
  if (b.otp_attempts >= OTP_ATTEMPTS)
    return refused('OTP_LOCKED', `Too many wrong codes: ask the lab to send ${b.booking_number} a new visit code`);
  if (otpHash(actor.organizationId, b.booking_number, otp) !== b.otp_hash) {
    await updateBookingRow(trx, b.id, { otp_attempts: b.otp_attempts + 1, updated_at: nowIso() });
    const left = OTP_ATTEMPTS - b.otp_attempts - 1;
    return refused('OTP_WRONG', `Wrong visit code (${left} attempt${left === 1 ? '' : 's'} left)`);
  }
  await change(trx, actor, b, { status: 'started', started_at: at });
  return applied;
}

/**
 * The tubes drawn: the booking becomes a bill (priced as OP Bill, the payer's if any), whose order
 * gives one pending sample per tube; each drawn tube's sample takes the barcode the phone printed
 * (reserved for it at booking), is collected at the time the phone recorded (turnaround starts
 * there) and is in transit to the lab.
 */
async function collect(
  trx: Db,
  actor: Actor,
  b: BookingOwnRow,
  drawn: { barcode: string; collected_at: string }[],
): Promise<Outcome> {
  if (b.status === 'booked') return refused('NOT_STARTED', 'Start the visit with the patient’s visit code first');
  if (b.status !== 'started') return conflict(`VISIT_${b.status.toUpperCase()}`, CLOSED[b.status]!);
  const org = actor.organizationId;
  const tubes = await tubesOfBooking(trx, org, b.id);
  const stranger = drawn.find((d) => !tubes.some((t) => t.barcode === d.barcode));
  if (stranger) return refused('UNKNOWN_TUBE', `Barcode ${stranger.barcode} is not a tube of ${b.booking_number}`);
  const lines = JSON.parse(b.items) as StoredLine[];
  const billId = await createBillIn(trx, actor, {
    patient_id: b.patient_id,
    items: lines.map((l) => ({ item_type: l.item_type, item_id: l.item_id, qty: l.qty, discount_percent: 0 })),
    payer_id: b.payer_id,
    visit_type: 'lab_only',
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'cash',
    notes: `Home collection ${b.booking_number}`,
  });
  const ordered = await pendingSamplesOfBill(trx, org, billId);
  let last = '';
  for (const d of drawn) {
    const tube = tubes.find((t) => t.barcode === d.barcode)!;
    const sample = ordered.find((s) => s.container === tube.container);
    if (!sample) continue;
    ordered.splice(ordered.indexOf(sample), 1);
    await useReservedBarcode(trx, org, tube.barcode);
    const patch = {
      barcode: tube.barcode,
      status: 'collected',
      collection_date: d.collected_at,
      collector_id: actor.userId,
      location: IN_TRANSIT,
      updated_at: nowIso(),
    };
    await updateSampleRow(trx, sample.id, patch);
    await addHistory(trx, actor, sample.id, 'pending', 'collected', IN_TRANSIT, `Drawn at home (${b.booking_number})`);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'sample',
      entityId: sample.id,
      oldValues: { barcode: sample.barcode, status: 'pending' },
      newValues: patch,
    });
    await updateTubeRow(trx, tube.id, { collected_at: d.collected_at, sample_id: sample.id });
    if (d.collected_at > last) last = d.collected_at;
  }
  await change(trx, actor, b, { status: 'collected', collected_at: last, bill_id: billId });
  return applied;
}

async function pay(trx: Db, actor: Actor, b: BookingOwnRow, op: Extract<VisitOp, { kind: 'pay' }>): Promise<Outcome> {
  if (!b.bill_id) {
    if (b.status === 'booked' || b.status === 'started')
      return refused('NOT_COLLECTED', 'Record the tubes before the payment');
    return conflict(`VISIT_${b.status.toUpperCase()}`, CLOSED[b.status]!);
  }
  await recordBillPayment(trx, actor, b.bill_id, {
    amount: op.amount,
    method: op.method,
    reference: op.reference ?? null,
    bank: null,
    reason: null,
  });
  const bill = (await findBill(trx, actor.organizationId, b.bill_id))!;
  const row = (await findBookingRow(trx, actor.organizationId, b.id))!;
  await tellPatient(
    trx,
    actor.organizationId,
    {
      booking_number: row.booking_number,
      slot_date: row.slot_date,
      slot_time: row.slot_time,
      patient: { first_name: row.patient_first_name, phone: row.patient_phone, email: row.patient_email },
    },
    {
      kind: 'receipt',
      amount: op.amount,
      method: op.method === 'upi' ? `UPI ref ${op.reference}` : 'cash',
      billNumber: bill.bill_number,
      due: paiseToRupees(Math.max(0, bill.final_amount_paise - bill.paid_paise)),
    },
  );
  return applied;
}
