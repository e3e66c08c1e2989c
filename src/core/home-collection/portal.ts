import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { orderableItems } from '../catalogue/service.js';
import { organizationTimezone } from '../settings/service.js';
import { paiseToRupees } from '../../shared/money.js';
import { localMinuteStamp } from '../../shared/time.js';
import { slotStamp } from '../../shared/home-collection.js';
import type { Booking, PortalBooking, PortalHomeOffer, Slot } from '../../shared/schemas/home-collection.js';
import { slotsOfDay } from './calendar.js';
import { cancelBooking, createBooking } from './service.js';
import { toBooking } from './mappers.js';
import { bookingOwnRow, bookingsQuery, calendarRow, fastingRows } from './repository.js';

/**
 * Booking from the patient portal, when the lab allows it (the calendar's portal_booking): the
 * signed-in patient books a visit for themselves, self-paid, in a free slot, and may cancel their
 * own visit before its slot begins; the desk sees it with source "portal" and dispatches it as any
 * other.
 */

export interface PortalPatient {
  patientId: number;
  patientCode: string;
  organizationId: number;
}

async function portalBookingOn(db: Db, organizationId: number): Promise<boolean> {
  return (await calendarRow(db, organizationId))?.portal_booking === 1;
}

async function requirePortalBooking(db: Db, organizationId: number): Promise<void> {
  if (!(await portalBookingOn(db, organizationId)))
    throw new ConflictError(
      'The lab takes home collection bookings at the desk only: please call the lab',
      'PORTAL_BOOKING_OFF',
    );
}

/** No staff member acts: the audit trail names the patient's portal sign-in. */
const portalActor = (p: PortalPatient): Actor => ({
  userId: null,
  email: `portal:${p.patientCode}`,
  role: 'system',
  organizationId: p.organizationId,
});

/**
 * What the patient may book: the lab's active tests, profiles and packages at the lab's price, each
 * with the longest fasting its tests need. Answered (empty) while portal booking is off, so the
 * portal can leave the booking screen out instead of showing an error.
 */
export async function portalOffer(db: Db, p: PortalPatient): Promise<PortalHomeOffer> {
  if (!(await portalBookingOn(db, p.organizationId))) return { portal_booking: false, items: [] };
  const fasting = new Map((await fastingRows(db, p.organizationId)).map((f) => [f.test_id, Number(f.hours)]));
  const items = await orderableItems(db, p.organizationId);
  return {
    portal_booking: true,
    items: items.map((i) => {
      const hours = i.test_ids.flatMap((t) => fasting.get(t) ?? []);
      return {
        item_type: i.item_type,
        item_id: i.item_id,
        name: i.name,
        code: i.code,
        price: paiseToRupees(i.price_paise),
        fasting_hours: hours.length ? Math.max(...hours) : null,
      };
    }),
  };
}

export async function portalSlots(db: Db, p: PortalPatient, date: string): Promise<Slot[]> {
  await requirePortalBooking(db, p.organizationId);
  return slotsOfDay(db, p.organizationId, date);
}

export async function portalBook(db: Db, p: PortalPatient, input: PortalBooking): Promise<Booking> {
  await requirePortalBooking(db, p.organizationId);
  return createBooking(db, portalActor(p), { ...input, patient_id: p.patientId, payer_id: null }, 'portal');
}

/**
 * The patient cancels their own open visit, with a reason, until its slot begins; after that the
 * phlebotomist may be on the way, so it is the desk's call (409 SLOT_BEGUN). Another patient's
 * booking is not found, as any row of someone else.
 */
export async function portalCancel(db: Db, p: PortalPatient, id: number, reason: string): Promise<Booking> {
  await requirePortalBooking(db, p.organizationId);
  const row = await bookingOwnRow(db, p.organizationId, id);
  if (!row || row.patient_id !== p.patientId) throw new NotFoundError('Booking', id);
  const now = localMinuteStamp(await organizationTimezone(db, p.organizationId));
  if (row.status === 'booked' && slotStamp(row.slot_date, row.slot_time) <= now)
    throw new ConflictError(
      `The ${row.slot_time} slot of ${row.slot_date} has begun: please call the lab to cancel`,
      'SLOT_BEGUN',
    );
  return cancelBooking(db, portalActor(p), id, reason);
}

/** The patient's own visits, newest slot first. */
export async function portalBookings(db: Db, p: PortalPatient): Promise<Booking[]> {
  const rows = await bookingsQuery(db, p.organizationId)
    .where('b.patient_id', '=', p.patientId)
    .orderBy('b.slot_date', 'desc')
    .orderBy('b.slot_time', 'desc')
    .limit(50)
    .execute();
  return rows.map(toBooking);
}
