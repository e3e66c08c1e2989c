import type { Generated } from 'kysely';
import type { DeliveryStatus, ReceiverKind } from '../../shared/schemas/interop-out.js';

/** Kysely table types of reports out (migration 27). Timestamps are ISO-8601 UTC strings. */

export interface InteropReceiversTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  kind: ReceiverKind;
  /** MLLP: the interface engine's host and port. */
  host: string | null;
  port: number | null;
  /** HTTP: where the FHIR Bundle is POSTed. */
  url: string | null;
  /** Only the reports of bills charged to this payer; null: every report. */
  payer_id: number | null;
  enabled: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface InteropDeliveriesTable {
  id: Generated<number>;
  organization_id: number;
  receiver_id: number;
  sample_id: number;
  /** MSH-10 of the HL7 message / the Bundle's identifier: the ACK answers it. */
  message_id: string;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_at: string | null;
  /** The last failure (no patient data: codes, ACK texts, HTTP statuses). */
  last_error: string | null;
  /** The receiver's answer: ACK code or HTTP status. */
  response: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    interop_receivers: InteropReceiversTable;
    interop_deliveries: InteropDeliveriesTable;
  }
}
