import type { Generated } from 'kysely';

/** Kysely table types of the analyzer interfaces (migration 026). Timestamps are ISO-8601 UTC. */

export interface ConnectionsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  equipment_id: number | null;
  protocol: string;
  transport: string;
  host: string | null;
  port: number | null;
  path: string | null;
  lenient: number;
  enabled: number;
  /** ASTM order download (migration 029): 1 sends each collected sample's tests to the machine. */
  send_orders: Generated<number>;
  /** When send_orders was switched on: samples collected before it are not sent. */
  send_orders_from: string | null;
  /** Serial transport (migration 029); NULL: 9600, 8, none, 1. */
  baud_rate: number | null;
  data_bits: number | null;
  parity: string | null;
  stop_bits: number | null;
  /** JSON: [{code, test_id, unit?, factor?, ignore?}] (an ignored code has no test_id) */
  code_map: string;
  /** Migration 046: the most one transmission may hold, KiB; NULL: the default. */
  max_message_kib: number | null;
  /** Migration 048: the instrument profile's preset key ('standard' unless chosen). */
  profile: Generated<string>;
  /** Migration 048: JSON of the lab's own profile settings (InstrumentProfileSettings); NULL: the preset's. */
  profile_settings: string | null;
  service_user_id: number;
  listen_status: string;
  last_error: string | null;
  status_at: string | null;
  last_message_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface InterfaceMessagesTable {
  id: Generated<number>;
  organization_id: number;
  connection_id: number;
  direction: string;
  protocol: string;
  raw: Buffer;
  size: number;
  status: string;
  message_type: string | null;
  results_count: number;
  unmatched_count: number;
  /** Values the code map ignores (migration 029). */
  ignored_count: Generated<number>;
  ack: string | null;
  error: string | null;
  received_at: string;
}

export interface InterfaceUnmatchedTable {
  id: Generated<number>;
  organization_id: number;
  connection_id: number;
  message_id: number;
  specimen_id: string;
  code: string;
  value: string;
  unit: string | null;
  flag: string | null;
  reason: string;
  detail: string;
  status: string;
  result_id: number | null;
  discard_reason: string | null;
  resolved_by: number | null;
  resolved_at: string | null;
  created_at: string;
}

/** One sample's order downloaded (or to download) to one connection's machine (migration 029). */
export interface InterfaceOrderSendsTable {
  id: Generated<number>;
  organization_id: number;
  connection_id: number;
  sample_id: number;
  status: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  message_id: number | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    connections: ConnectionsTable;
    interface_messages: InterfaceMessagesTable;
    interface_unmatched: InterfaceUnmatchedTable;
    interface_order_sends: InterfaceOrderSendsTable;
  }
}
