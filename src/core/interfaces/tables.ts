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
  /** JSON: [{code, test_id, unit?, factor?}] */
  code_map: string;
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

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    connections: ConnectionsTable;
    interface_messages: InterfaceMessagesTable;
    interface_unmatched: InterfaceUnmatchedTable;
  }
}
