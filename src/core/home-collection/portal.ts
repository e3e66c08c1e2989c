import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { ConflictError } from '../errors.js';
import type { Booking, PortalBooking, Slot } from '../../shared/schemas/home-collection.js';
import { requireCalendar, slotsOfDay } from './calendar.js';
import { createBooking } from './service.js';
import { toBooking } from './mappers.js';
import { bookingsQuery } from './repository.js';

/**
 * Booking from the patient portal, when the lab allows it (the calendar's portal_booking): the
 * signed-in patient books a visit for themselves, self-paid, in a free slot; the desk sees it with
 * source "portal" and dispatches it as any other.
 */

export interface PortalPatient {
  patientId: number;
  patientCode: string;
  organizationId: number;
}

async function requirePortalBooking(db: Db, organizationId: number): Promise<void> {
  const c = await requireCalendar(db, organizationId).catch(() => null);
  if (!c || c.portal_booking !== 1)
    throw new ConflictError(
      'The lab takes home collection bookings at the desk only: please call the lab',
      'PORTAL_BOOKING_OFF',
    );
}

export async function portalSlots(db: Db, p: PortalPatient, date: string): Promise<Slot[]> {
  await requirePortalBooking(db, p.organizationId);
  return slotsOfDay(db, p.organizationId, date);
}

export async function portalBook(db: Db, p: PortalPatient, input: PortalBooking): Promise<Booking> {
  await requirePortalBooking(db, p.organizationId);
  // No staff member acts: the audit trail names the patient's portal sign-in.
  const actor: Actor = {
    userId: null,
    email: `portal:${p.patientCode}`,
    role: 'system',
    organizationId: p.organizationId,
  };
  return createBooking(db, actor, { ...input, patient_id: p.patientId, payer_id: null }, 'portal');
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
