import type { Generated } from 'kysely';

/** Kysely table types of home collection (migration 53). Times are ISO-8601 UTC; money is integer paise. */

export interface HomeCalendarsTable {
  organization_id: number;
  slot_minutes: number;
  /** Lab time, HH:MM. */
  first_slot: string;
  last_slot: string;
  slot_capacity: number;
  per_phlebotomist: number;
  portal_booking: number;
  updated_at: string;
}

export interface HomeAreasTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface HomeAreaPinsTable {
  organization_id: number;
  pin_code: string;
  area_id: number;
}

export interface HomeFastingTable {
  organization_id: number;
  test_id: number;
  hours: number;
}

export interface HomeSlotLoadsTable {
  organization_id: number;
  /** `YYYY-MM-DD|HH:MM` for the slot, `YYYY-MM-DD|HH:MM|<user id>` for one phlebotomist's share. */
  slot_key: string;
  booked: number;
}

export interface HomeBookingsTable {
  id: Generated<number>;
  organization_id: number;
  booking_number: string;
  patient_id: number;
  area_id: number;
  address: string;
  pin_code: string;
  map_link: string | null;
  slot_date: string;
  slot_time: string;
  status: string;
  phlebotomist_id: number | null;
  payer_id: number | null;
  /** JSON: the lines as OP Bill takes them (item_type, item_id, qty). */
  items: string;
  quoted_paise: number;
  fasting_hours: number | null;
  notes: string | null;
  source: string;
  otp_hash: string;
  otp_attempts: number;
  reason: string | null;
  bill_id: number | null;
  started_at: string | null;
  arrived_at: string | null;
  latitude: number | null;
  longitude: number | null;
  collected_at: string | null;
  /** The last operation of the phone that met a change made at the desk, for the desk to see. */
  sync_conflict: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface HomeTubesTable {
  id: Generated<number>;
  organization_id: number;
  booking_id: number;
  container: string;
  sample_type: string;
  barcode: string;
  collected_at: string | null;
  sample_id: number | null;
  received_at: string | null;
  received_temperature: number | null;
  received_by: number | null;
}

export interface HomeSyncOpsTable {
  organization_id: number;
  user_id: number;
  op_id: string;
  booking_id: number | null;
  kind: string;
  /** JSON: the answer the phone got. */
  outcome: string;
  created_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    home_calendars: HomeCalendarsTable;
    home_areas: HomeAreasTable;
    home_area_pins: HomeAreaPinsTable;
    home_fasting: HomeFastingTable;
    home_slot_loads: HomeSlotLoadsTable;
    home_bookings: HomeBookingsTable;
    home_tubes: HomeTubesTable;
    home_sync_ops: HomeSyncOpsTable;
  }
}
