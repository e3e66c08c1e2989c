import type { Db } from '../db/connection.js';
import { getOrganization } from '../settings/service.js';
import { queuePatientNotice } from '../messaging/service.js';
import { formatLabDate, type LabDateFormat } from '../../shared/time.js';

/**
 * What the patient is told of their home visit, by the messaging the lab has (SMS, email), queued in
 * the transaction of the change. The visit code is sent once, with the booking: it is what the
 * phlebotomist asks for at the door, so it is never shown to staff nor put in the audit trail.
 */

export interface NoticeBooking {
  booking_number: string;
  slot_date: string;
  slot_time: string;
  patient: { first_name: string; phone: string | null; email: string | null };
}

export type NoticeKind =
  | { kind: 'booked'; otp: string; fastingHours: number | null }
  | { kind: 'new_code'; otp: string }
  | { kind: 'assigned'; phlebotomist: string }
  | { kind: 'rescheduled' }
  | { kind: 'cancelled'; reason: string }
  | { kind: 'receipt'; amount: number; method: string; billNumber: string; due: number };

function text(b: NoticeBooking, when: string, n: NoticeKind): string {
  switch (n.kind) {
    case 'booked':
      return [
        `Home collection ${b.booking_number} booked for ${when}.`,
        n.fastingHours ? `Please do not eat for ${n.fastingHours} hours before the visit (water is fine).` : '',
        `Visit code ${n.otp}: give it to the phlebotomist at your door.`,
      ]
        .filter(Boolean)
        .join(' ');
    case 'new_code':
      return `Your new visit code for home collection ${b.booking_number} on ${when} is ${n.otp}: give it to the phlebotomist at your door. The old code no longer works.`;
    case 'assigned':
      return `Your phlebotomist for home collection ${b.booking_number} on ${when} is ${n.phlebotomist}.`;
    case 'rescheduled':
      return `Home collection ${b.booking_number} is moved to ${when}. Your visit code stays the same.`;
    case 'cancelled':
      return `Home collection ${b.booking_number} on ${when} is cancelled: ${n.reason}.`;
    case 'receipt':
      return `Received Rs ${n.amount.toFixed(2)} (${n.method}) for bill ${n.billNumber}, home collection ${b.booking_number}.${
        n.due > 0 ? ` Balance due Rs ${n.due.toFixed(2)}.` : ' Fully paid.'
      } Thank you.`;
  }
}

export async function tellPatient(trx: Db, organizationId: number, b: NoticeBooking, n: NoticeKind): Promise<number> {
  const org = await getOrganization(trx, organizationId);
  const when = `${formatLabDate(b.slot_date, {
    dateFormat: org.date_format as LabDateFormat,
    timeZone: org.timezone,
    hour12: false,
  })} at ${b.slot_time}`;
  return queuePatientNotice(trx, org, {
    kind: `home_${n.kind}`,
    phone: b.patient.phone,
    email: b.patient.email,
    subject: 'Your home collection',
    greeting: `Dear ${b.patient.first_name},`,
    text: text(b, when, n),
  });
}
