import { createHash, randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { nextSequence } from '../sequences.js';
import { findPatient } from '../patients/repository.js';
import { insertPatient } from '../patients/service.js';
import { priceBill } from '../billing/service.js';
import { payerForBill } from '../payers/service.js';
import { testsOfLines } from '../catalogue/service.js';
import { organizationTimezone } from '../settings/service.js';
import { localDate, localMinuteStamp } from '../../shared/time.js';
import {
  OPEN_STATUSES,
  OTP_ATTEMPTS,
  isSlotTime,
  slotKey,
  slotStamp,
  slotTimes,
  type BookingStatus,
} from '../../shared/home-collection.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type { Booking, BookingCreate, BookingListQuery, Reschedule } from '../../shared/schemas/home-collection.js';
import type { HomeBookingsTable, HomeCalendarsTable } from './tables.js';
import { requireCalendar } from './calendar.js';
import { tellPatient, type NoticeKind } from './notices.js';
import { toBooking, type StoredLine } from './mappers.js';
import { reserveTubes } from './tubes.js';
import {
  addToSlot,
  areaOfPin,
  bookingOwnRow,
  fastingHoursOf,
  findBookingRow,
  insertBookingRow,
  pageBookings,
  updateBookingRow,
  type BookingRow,
} from './repository.js';

/** Bookings of home visits: made, moved, cancelled, a no-show; each slot held within its capacity. */

type CalendarRow = Selectable<HomeCalendarsTable>;
type BookingOwnRow = Selectable<HomeBookingsTable>;

export async function getBooking(db: Db, organizationId: number, id: number): Promise<Booking> {
  const row = await findBookingRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Booking', id);
  return toBooking(row);
}

export async function listBookings(db: Db, organizationId: number, q: BookingListQuery) {
  const { rows, total } = await pageBookings(db, organizationId, q);
  return { bookings: rows.map(toBooking), ...pageEnvelope(total, q.page, q.limit) };
}

/** A slot of the calendar that has not begun yet in the lab's time zone. */
async function assertBookableSlot(trx: Db, organizationId: number, c: CalendarRow, date: string, time: string) {
  if (!isSlotTime(c, time)) {
    const times = slotTimes(c);
    throw ValidationError.field(
      'slot_time',
      `${time} is not a slot: slots run from ${times[0]} to ${times.at(-1)} every ${c.slot_minutes} minutes`,
    );
  }
  const tz = await organizationTimezone(trx, organizationId);
  if (date < localDate(tz)) throw ValidationError.field('slot_date', `${date} is in the past`);
  if (slotStamp(date, time) <= localMinuteStamp(tz))
    throw ValidationError.field('slot_time', `The ${time} slot of ${date} has begun`);
}

/**
 * Takes one place in a slot, and in the phlebotomist's share of it when one is named. The count is
 * raised first and checked after (see addToSlot): a booking that would overfill rolls back with its
 * transaction, so the count is right under any number of concurrent bookings.
 */
export async function takePlace(
  trx: Db,
  organizationId: number,
  c: CalendarRow,
  date: string,
  time: string,
  phlebotomistId: number | null,
): Promise<void> {
  if ((await addToSlot(trx, organizationId, slotKey(date, time), 1)) > c.slot_capacity)
    throw new ConflictError(`The ${time} slot of ${date} is full`, 'SLOT_FULL');
  if (
    phlebotomistId &&
    (await addToSlot(trx, organizationId, slotKey(date, time, phlebotomistId), 1)) > c.per_phlebotomist
  )
    throw new ConflictError(
      `This phlebotomist already has ${c.per_phlebotomist} visit(s) in the ${time} slot of ${date}`,
      'PHLEBOTOMIST_FULL',
    );
}

export async function releasePlace(trx: Db, organizationId: number, b: BookingOwnRow): Promise<void> {
  await addToSlot(trx, organizationId, slotKey(b.slot_date, b.slot_time), -1);
  if (b.phlebotomist_id) await addToSlot(trx, organizationId, slotKey(b.slot_date, b.slot_time, b.phlebotomist_id), -1);
}

export const otpHash = (organizationId: number, bookingNumber: string, otp: string): string =>
  createHash('sha256').update(`${organizationId}:${bookingNumber}:${otp}`).digest('hex');

/** A fresh six-digit visit code for the patient, and the hash the booking keeps of it. */
function newVisitCode(organizationId: number, bookingNumber: string): { otp: string; hash: string } {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { otp, hash: otpHash(organizationId, bookingNumber, otp) };
}

/** The lines priced as OP Bill would price them today (the payer's prices with a payer), and the fasting they need. */
async function quote(trx: Db, actor: Actor, input: Pick<BookingCreate, 'items' | 'payer_id'>) {
  const payer = input.payer_id ? await payerForBill(trx, actor.organizationId, input.payer_id) : null;
  const today = localDate(await organizationTimezone(trx, actor.organizationId));
  const priced = await priceBill(trx, actor, {
    items: input.items.map((i) => ({ ...i, discount_percent: 0 })),
    payer,
    feePaise: 0,
    discountPercent: 0,
    approval: undefined,
    today,
    confirmDuplicates: false,
  });
  const lines: StoredLine[] = priced.lines.map((l) => ({
    item_type: l.item_type,
    item_id: (l.test_id ?? l.profile_id ?? l.package_id)!,
    qty: l.qty,
    name: l.name,
  }));
  const fasting = await fastingHoursOf(trx, actor.organizationId, await testsOfLines(trx, priced.lines));
  return { lines, quotedPaise: priced.finalPaise, fasting, payerId: payer?.id ?? null };
}

const noticeOf = (r: BookingRow) => ({
  booking_number: r.booking_number,
  slot_date: r.slot_date,
  slot_time: r.slot_time,
  patient: { first_name: r.patient_first_name, phone: r.patient_phone, email: r.patient_email },
});

/** Queues the notice; answers how many messages went in the outbox (none: no channel reaches the patient). */
async function tell(trx: Db, organizationId: number, id: number, n: NoticeKind): Promise<number> {
  const row = await findBookingRow(trx, organizationId, id);
  return row ? tellPatient(trx, organizationId, noticeOf(row), n) : 0;
}

/** A visit booked (from the desk, or by the patient from the portal); the patient is sent the slot and the visit code. */
export async function createBooking(
  db: Db,
  actor: Actor,
  input: BookingCreate,
  source: 'desk' | 'portal' = 'desk',
): Promise<Booking> {
  const org = actor.organizationId;
  const id = await db.transaction().execute(async (trx) => {
    const c = await requireCalendar(trx, org);
    await assertBookableSlot(trx, org, c, input.slot_date, input.slot_time);
    const area = await areaOfPin(trx, org, input.pin_code);
    if (!area) throw ValidationError.field('pin_code', `The lab does not collect at pin code ${input.pin_code}`);
    const patient = input.patient_id
      ? await findPatient(trx, org, input.patient_id)
      : await insertPatient(trx, actor, input.patient!);
    if (!patient) throw ValidationError.field('patient_id', `Unknown patient ${input.patient_id}`);
    const q = await quote(trx, actor, input);
    await takePlace(trx, org, c, input.slot_date, input.slot_time, null);
    const day = localDate(await organizationTimezone(trx, org)).replace(/-/g, '');
    const bookingNumber = `HC${day}-${await nextSequence(trx, org, `home:${day}`)}`;
    const code = newVisitCode(org, bookingNumber);
    const now = nowIso();
    const row = await insertBookingRow(trx, {
      organization_id: org,
      booking_number: bookingNumber,
      patient_id: patient.id,
      area_id: area.id,
      address: input.address,
      pin_code: input.pin_code,
      map_link: input.map_link ?? null,
      slot_date: input.slot_date,
      slot_time: input.slot_time,
      status: 'booked',
      phlebotomist_id: null,
      payer_id: q.payerId,
      items: JSON.stringify(q.lines),
      quoted_paise: q.quotedPaise,
      fasting_hours: q.fasting,
      notes: input.notes ?? null,
      source,
      otp_hash: code.hash,
      otp_attempts: 0,
      reason: null,
      bill_id: null,
      started_at: null,
      arrived_at: null,
      latitude: null,
      longitude: null,
      collected_at: null,
      sync_conflict: null,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    });
    await reserveTubes(trx, org, row.id, q.lines);
    const { otp_hash: _hash, ...audited } = row;
    await writeAudit(trx, actor, { action: 'create', entity: 'home_booking', entityId: row.id, newValues: audited });
    await tell(trx, org, row.id, { kind: 'booked', otp: code.otp, fastingHours: q.fasting });
    return row.id;
  });
  return getBooking(db, org, id);
}

/** The booking, still open (booked): what reschedule, cancel, no-show and assign start from. */
export async function openBooking(trx: Db, organizationId: number, id: number): Promise<BookingOwnRow> {
  const row = await bookingOwnRow(trx, organizationId, id);
  if (!row) throw new NotFoundError('Booking', id);
  if (!OPEN_STATUSES.includes(row.status as BookingStatus))
    throw new ConflictError(
      `Booking ${row.booking_number} is ${row.status.replace('_', '-')}, no longer open`,
      'NOT_OPEN',
    );
  return row;
}

export async function rescheduleBooking(db: Db, actor: Actor, id: number, input: Reschedule): Promise<Booking> {
  const org = actor.organizationId;
  await db.transaction().execute(async (trx) => {
    const b = await openBooking(trx, org, id);
    if (b.slot_date === input.slot_date && b.slot_time === input.slot_time)
      throw ValidationError.field('slot_time', 'This is the slot the visit is booked for already');
    const c = await requireCalendar(trx, org);
    await assertBookableSlot(trx, org, c, input.slot_date, input.slot_time);
    await releasePlace(trx, org, b);
    await takePlace(trx, org, c, input.slot_date, input.slot_time, b.phlebotomist_id);
    const patch = {
      slot_date: input.slot_date,
      slot_time: input.slot_time,
      reason: input.reason,
      updated_at: nowIso(),
    };
    await updateBookingRow(trx, b.id, patch);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'home_booking',
      entityId: b.id,
      oldValues: { slot_date: b.slot_date, slot_time: b.slot_time },
      newValues: patch,
    });
    await tell(trx, org, b.id, { kind: 'rescheduled' });
  });
  return getBooking(db, org, id);
}

/** Cancelled (by the desk) or a no-show: the visit is closed with its reason and its place is freed. */
async function closeBooking(
  db: Db,
  actor: Actor,
  id: number,
  status: 'cancelled' | 'no_show',
  reason: string | null,
): Promise<Booking> {
  const org = actor.organizationId;
  await db.transaction().execute(async (trx) => {
    const b = await openBooking(trx, org, id);
    await releasePlace(trx, org, b);
    const patch = { status, reason, updated_at: nowIso() };
    await updateBookingRow(trx, b.id, patch);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'home_booking',
      entityId: b.id,
      oldValues: { status: b.status },
      newValues: patch,
    });
    if (status === 'cancelled') await tell(trx, org, b.id, { kind: 'cancelled', reason: reason ?? '' });
  });
  return getBooking(db, org, id);
}

export const cancelBooking = (db: Db, actor: Actor, id: number, reason: string) =>
  closeBooking(db, actor, id, 'cancelled', reason);
export const markNoShow = (db: Db, actor: Actor, id: number, reason: string | null) =>
  closeBooking(db, actor, id, 'no_show', reason);

/**
 * A visit locked by wrong visit codes, opened again by the desk: the tries start from none. With
 * `newCode` the patient is sent a new code and the old one stops working (only its hash was kept, so
 * the old code cannot be sent again); refused when no message can reach the patient, since a code
 * nobody receives would leave the visit as stuck as the lock did.
 */
export async function unlockBooking(db: Db, actor: Actor, id: number, newCode: boolean): Promise<Booking> {
  const org = actor.organizationId;
  await db.transaction().execute(async (trx) => {
    const b = await openBooking(trx, org, id);
    if (b.otp_attempts < OTP_ATTEMPTS)
      throw new ConflictError(`Booking ${b.booking_number} is not locked: its visit code still works`, 'NOT_LOCKED');
    const code = newCode ? newVisitCode(org, b.booking_number) : null;
    await updateBookingRow(trx, b.id, {
      otp_attempts: 0,
      ...(code ? { otp_hash: code.hash } : {}),
      updated_at: nowIso(),
    });
    // The code itself is the patient's alone: the audit says only that a new one was sent.
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'home_booking',
      entityId: b.id,
      oldValues: { otp_attempts: b.otp_attempts, otp_locked: true },
      newValues: { otp_attempts: 0, otp_locked: false, new_code_sent: newCode },
    });
    if (code && (await tell(trx, org, b.id, { kind: 'new_code', otp: code.otp })) === 0)
      throw ValidationError.field(
        'new_code',
        'No message can reach the patient (no phone or email, or no SMS or mail set up): unlock without a new code',
      );
  });
  return getBooking(db, org, id);
}
