import { paiseToRupees } from '../../shared/money.js';
import type { Booking } from '../../shared/schemas/home-collection.js';
import { OTP_ATTEMPTS, type BookingStatus } from '../../shared/home-collection.js';
import type { BookingRow } from './repository.js';

/** A booking's stored lines: as OP Bill takes them, with the name they had when booked. */
export interface StoredLine {
  item_type: 'test' | 'profile' | 'package';
  item_id: number;
  qty: number;
  name: string;
}

export function toBooking(r: BookingRow): Booking {
  return {
    id: r.id,
    booking_number: r.booking_number,
    patient_id: r.patient_id,
    patient_name: `${r.patient_first_name} ${r.patient_last_name}`.trim(),
    patient_code: r.patient_code,
    patient_phone: r.patient_phone,
    area_id: r.area_id,
    area_name: r.area_name,
    address: r.address,
    pin_code: r.pin_code,
    map_link: r.map_link,
    slot_date: r.slot_date,
    slot_time: r.slot_time,
    status: r.status as BookingStatus,
    phlebotomist_id: r.phlebotomist_id,
    phlebotomist_name: r.phlebotomist_first_name
      ? `${r.phlebotomist_first_name} ${r.phlebotomist_last_name ?? ''}`.trim()
      : null,
    payer_id: r.payer_id,
    items: JSON.parse(r.items) as StoredLine[],
    quoted_amount: paiseToRupees(r.quoted_paise),
    fasting_hours: r.fasting_hours,
    notes: r.notes,
    source: r.source as Booking['source'],
    reason: r.reason,
    bill_id: r.bill_id,
    sync_conflict: r.sync_conflict,
    otp_locked: r.otp_attempts >= OTP_ATTEMPTS,
    created_at: r.created_at,
  };
}
