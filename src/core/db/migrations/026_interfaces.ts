import { toPostgres } from '../dialect.js';

/**
 * Analyzer interfaces, inbound: the connections to the lab's machines, every message
 * they send (raw bytes kept), and the results that could not be matched to an ordered test.
 *
 * - A connection names its protocol (astm, hl7, folder) and transport (tcp-server, tcp-client,
 *   serial, folder), its code map (JSON: [{code, test_id, unit?, factor?}]) and the user account
 *   the machine enters results as (service_user_id: an account that cannot sign in, made with the
 *   connection). listen_status/last_error are written by the listener (a port in use is shown here).
 * - interface_messages is the message log: direction in/out, the raw bytes, status, the ACK sent.
 * - interface_unmatched is the Unmatched queue: one row per result that found no sample, no mapped
 *   test, or was refused; open until assigned (then it names the result) or discarded with a reason.
 */
export const sql = /* sql */ `
CREATE TABLE connections (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL COLLATE NOCASE,
  equipment_id INTEGER REFERENCES equipment(id),
  protocol TEXT NOT NULL CHECK (protocol IN ('astm','hl7','folder')),
  transport TEXT NOT NULL CHECK (transport IN ('tcp-server','tcp-client','serial','folder')),
  host TEXT,
  port INTEGER CHECK (port IS NULL OR (port > 0 AND port < 65536)),
  path TEXT,
  lenient INTEGER NOT NULL DEFAULT 1,
  enabled INTEGER NOT NULL DEFAULT 0,
  code_map TEXT NOT NULL DEFAULT '[]',
  service_user_id INTEGER NOT NULL REFERENCES users(id),
  listen_status TEXT NOT NULL DEFAULT 'stopped' CHECK (listen_status IN ('stopped','listening','connected','error')),
  last_error TEXT,
  status_at TEXT,
  last_message_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX connections_name ON connections (organization_id, name);

CREATE TABLE interface_messages (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  connection_id INTEGER NOT NULL REFERENCES connections(id),
  direction TEXT NOT NULL CHECK (direction IN ('in','out')),
  protocol TEXT NOT NULL,
  raw BLOB NOT NULL,
  size INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('processed','partial','unmatched','rejected','incomplete','answered','sent','failed')),
  message_type TEXT,
  results_count INTEGER NOT NULL DEFAULT 0,
  unmatched_count INTEGER NOT NULL DEFAULT 0,
  ack TEXT,
  error TEXT,
  received_at TEXT NOT NULL
);
CREATE INDEX interface_messages_conn ON interface_messages (organization_id, connection_id, id);

CREATE TABLE interface_unmatched (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  connection_id INTEGER NOT NULL REFERENCES connections(id),
  message_id INTEGER NOT NULL REFERENCES interface_messages(id),
  specimen_id TEXT NOT NULL,
  code TEXT NOT NULL,
  value TEXT NOT NULL,
  unit TEXT,
  flag TEXT,
  reason TEXT NOT NULL CHECK (reason IN ('unknown_sample','unmapped_code','unit_mismatch','refused')),
  detail TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','assigned','discarded')),
  result_id INTEGER REFERENCES test_results(id),
  discard_reason TEXT,
  resolved_by INTEGER REFERENCES users(id),
  resolved_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX interface_unmatched_open ON interface_unmatched (organization_id, status, id);
`;

export const postgres = toPostgres(sql).replace(/\bBLOB\b/g, 'BYTEA');
