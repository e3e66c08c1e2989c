import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface CollectionLocationsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  kind: string;
  position: number;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface SamplesTable {
  id: Generated<number>;
  organization_id: number;
  sample_code: string;
  barcode: string | null;
  patient_id: number;
  bill_id: number | null;
  sample_type: string;
  collector_id: number | null;
  location: string | null;
  priority: string;
  status: string;
  notes: string | null;
  rejection_reason: string | null;
  collection_date: string | null;
  completed_at: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** The tube (src/shared/tubes.ts) of a sample ordered by a bill. */
  container: string | null;
  /** When the report was released: the last verification that completed the sample. */
  reported_at: string | null;
  report_print_count: Generated<number>;
  /** A report released to the patient before the bill was paid: why, by whom, when. */
  release_reason: string | null;
  released_by: number | null;
  released_at: string | null;
  /** Condition of the specimen on receipt (migration 23), printed on the report. */
  receipt_condition: Generated<string | null>;
  /** The rejected sample this one was drawn again for (migration 40); null for a first draw. */
  recollect_of: Generated<number | null>;
}

export interface SampleTestsTable {
  sample_id: number;
  test_id: number;
  position: number;
}

export interface SampleStatusHistoryTable {
  id: Generated<number>;
  sample_id: number;
  from_status: string | null;
  to_status: string;
  changed_by: number | null;
  changed_by_name: string | null;
  location: string | null;
  notes: string | null;
  created_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
/** A barcode handed out before its tube exists (a phone labels tubes offline); migration 53. */
export interface BarcodeReservationsTable {
  organization_id: number;
  barcode: string;
  /** Who holds it, as `<entity>:<id>` (home_booking:12). */
  holder: string;
  reserved_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    collection_locations: CollectionLocationsTable;
    samples: SamplesTable;
    sample_tests: SampleTestsTable;
    sample_status_history: SampleStatusHistoryTable;
    barcode_reservations: BarcodeReservationsTable;
  }
}
