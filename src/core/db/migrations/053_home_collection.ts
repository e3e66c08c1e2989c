/**
 * Home collection (src/core/home-collection): the lab's slot calendar, its areas by pin code, the
 * fasting a test needs before a draw, and the bookings of visits to patients' homes.
 *
 * - home_calendars: one row per lab: slot length, first and last slot (lab time, HH:MM), how many
 *   visits one slot takes and one phlebotomist takes in a slot, whether patients may book from the
 *   portal. No row: the lab has not set home collection up.
 * - home_areas / home_area_pins: an area the lab serves and its pin codes; a pin code is in one area.
 * - home_fasting: the hours of fasting a test needs, told to the patient when it is booked.
 * - home_slot_loads: how many live bookings hold a slot (`date|HH:MM`) and a phlebotomist's share of
 *   it (`date|HH:MM|user`). A booking takes its place with one upsert that returns the new count, so
 *   two desks booking the last place at once are serialised by the row (PostgreSQL locks it, SQLite
 *   has one writer) and the one over capacity rolls back.
 * - home_bookings: a visit: the patient, the address, the priced lines (JSON, as OP Bill takes
 *   them), the slot, the phlebotomist, the status and the visit code the patient was sent (its hash);
 *   what the phone recorded (started, arrived with the location, collected) and the last conflict
 *   the phone met (the visit cancelled at the desk while it was offline), for the desk to see.
 * - barcode_reservations (samples): barcodes handed out before their tube exists, so a phone can
 *   label tubes offline; freshBarcode never issues a reserved one.
 * - home_tubes: a visit's tubes with their reserved barcodes, when each was drawn, its sample once
 *   synced, and the received-at-lab scan (time, temperature).
 * - home_sync_ops: each operation a phone sent, by its own id, with the answer it got: the same
 *   operation sent again gets the same answer and changes nothing.
 */
export const sql = /* sql */ `
CREATE TABLE home_calendars (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  slot_minutes INTEGER NOT NULL CHECK (slot_minutes > 0),
  first_slot TEXT NOT NULL,
  last_slot TEXT NOT NULL,
  slot_capacity INTEGER NOT NULL CHECK (slot_capacity > 0),
  per_phlebotomist INTEGER NOT NULL CHECK (per_phlebotomist > 0),
  portal_booking INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);

CREATE TABLE home_areas (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX home_areas_name ON home_areas (organization_id, name);

CREATE TABLE home_area_pins (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  pin_code TEXT NOT NULL,
  area_id INTEGER NOT NULL REFERENCES home_areas(id),
  PRIMARY KEY (organization_id, pin_code)
);
CREATE INDEX home_area_pins_area ON home_area_pins (area_id);

CREATE TABLE home_fasting (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  test_id INTEGER NOT NULL REFERENCES tests(id),
  hours INTEGER NOT NULL CHECK (hours > 0),
  PRIMARY KEY (organization_id, test_id)
);

CREATE TABLE home_slot_loads (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  slot_key TEXT NOT NULL,
  booked INTEGER NOT NULL,
  PRIMARY KEY (organization_id, slot_key)
);

CREATE TABLE home_bookings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  booking_number TEXT NOT NULL,
  patient_id INTEGER NOT NULL REFERENCES patients(id),
  area_id INTEGER NOT NULL REFERENCES home_areas(id),
  address TEXT NOT NULL,
  pin_code TEXT NOT NULL,
  map_link TEXT,
  slot_date TEXT NOT NULL,
  slot_time TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('booked','started','collected','refused','failed','cancelled','no_show')),
  phlebotomist_id INTEGER REFERENCES users(id),
  payer_id INTEGER REFERENCES payers(id),
  items TEXT NOT NULL,
  quoted_paise INTEGER NOT NULL,
  fasting_hours INTEGER,
  notes TEXT,
  source TEXT NOT NULL CHECK (source IN ('desk','portal')),
  otp_hash TEXT NOT NULL,
  otp_attempts INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  bill_id INTEGER REFERENCES bills(id),
  started_at TEXT,
  arrived_at TEXT,
  latitude REAL,
  longitude REAL,
  collected_at TEXT,
  sync_conflict TEXT,
  created_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX home_bookings_number ON home_bookings (organization_id, booking_number);
CREATE INDEX home_bookings_day ON home_bookings (organization_id, slot_date, slot_time);
CREATE INDEX home_bookings_patient ON home_bookings (patient_id);
CREATE INDEX home_bookings_phlebotomist ON home_bookings (phlebotomist_id, slot_date);

CREATE TABLE barcode_reservations (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  barcode TEXT NOT NULL,
  holder TEXT NOT NULL,
  reserved_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, barcode)
);

CREATE TABLE home_tubes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  booking_id INTEGER NOT NULL REFERENCES home_bookings(id),
  container TEXT NOT NULL,
  sample_type TEXT NOT NULL,
  barcode TEXT NOT NULL,
  collected_at TEXT,
  sample_id INTEGER,
  received_at TEXT,
  received_temperature REAL,
  received_by INTEGER REFERENCES users(id)
);
CREATE UNIQUE INDEX home_tubes_barcode ON home_tubes (organization_id, barcode);
CREATE INDEX home_tubes_booking ON home_tubes (booking_id);

CREATE TABLE home_sync_ops (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  op_id TEXT NOT NULL,
  booking_id INTEGER,
  kind TEXT NOT NULL,
  outcome TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id, op_id)
);
`;
