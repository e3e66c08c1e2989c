import { toPostgres } from '../dialect.js';

/**
 * Analyzer interfaces.
 *
 * - A code map entry may ignore a code (a Sysmex flag or research parameter the lab does not
 *   report): the message log counts the values it ignored, next to those entered and those queued
 *   as unmatched; the values themselves stay in the raw message.
 * - Order download (broadcast): an ASTM connection with send_orders sends the tests ordered on each
 *   sample collected since send_orders_from (when the option was switched on) to its machine.
 *   interface_order_sends holds one row per connection and sample: pending until the machine took
 *   it (sent) or nothing is left to run on it (skipped); claimed_until keeps two processes on one
 *   database from sending the same order.
 * - Serial transport: the port's settings (the device is in path). NULL: 9600 baud, 8 data bits,
 *   no parity, 1 stop bit, what most analysers ship with.
 */
export const sql = /* sql */ `
ALTER TABLE interface_messages ADD COLUMN ignored_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE connections ADD COLUMN send_orders INTEGER NOT NULL DEFAULT 0;
ALTER TABLE connections ADD COLUMN send_orders_from TEXT;
ALTER TABLE connections ADD COLUMN baud_rate INTEGER;
ALTER TABLE connections ADD COLUMN data_bits INTEGER;
ALTER TABLE connections ADD COLUMN parity TEXT;
ALTER TABLE connections ADD COLUMN stop_bits INTEGER;

CREATE TABLE interface_order_sends (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  connection_id INTEGER NOT NULL REFERENCES connections(id),
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sent','skipped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  claimed_until TEXT,
  message_id INTEGER REFERENCES interface_messages(id),
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE UNIQUE INDEX interface_order_sends_sample ON interface_order_sends (connection_id, sample_id);
CREATE INDEX interface_order_sends_due ON interface_order_sends (connection_id, status, next_attempt_at);
`;

export const postgres = toPostgres(sql);
