/**
 * Lab email and SMS. Each lab's mail server (SMTP) and SMS gateway, one row each, kept
 * apart from the settings JSON; their password and API key are stored as typed (they must be sent
 * to the mail server and the gateway) and never leave the server in an answer or a log line.
 * The outbox holds every message to send: written in the transaction of the event it is about,
 * delivered after commit by `lims serve`'s sender, which claims a row before sending it, so of
 * several servers on one PostgreSQL database only one sends each. `dedupe_key` marks messages sent
 * once ever (a report ready: `report_ready:<sample id>`); the unique index backs it.
 */
export const sql = /* sql */ `
CREATE TABLE smtp_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  host TEXT NOT NULL,
  port INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
  security TEXT NOT NULL CHECK (security IN ('none','starttls','tls')),
  username TEXT,
  password TEXT,
  from_address TEXT NOT NULL,
  from_name TEXT,
  updated_at TEXT NOT NULL,
  updated_by INTEGER REFERENCES users(id)
);
CREATE TABLE sms_gateways (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  method TEXT NOT NULL CHECK (method IN ('GET','POST')),
  url_template TEXT NOT NULL,
  body_template TEXT,
  body_type TEXT NOT NULL DEFAULT 'form' CHECK (body_type IN ('form','json')),
  header_name TEXT,
  api_key TEXT,
  updated_at TEXT NOT NULL,
  updated_by INTEGER REFERENCES users(id)
);
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  channel TEXT NOT NULL CHECK (channel IN ('email','sms')),
  kind TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  dedupe_key TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sending','sent','failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT NOT NULL,
  claimed_at TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_org ON outbox (organization_id, created_at);
CREATE UNIQUE INDEX outbox_once ON outbox (organization_id, dedupe_key, channel, recipient) WHERE dedupe_key IS NOT NULL;
`;
