/**
 * Report delivery (src/core/report-delivery): released reports reach the patient as a link.
 *
 * - report_delivery_settings: one row per lab: on or off, how long a link lives, what the patient
 *   proves, the WhatsApp Business Cloud API account and template, email as link or attachment, the
 *   fallback channel, doctors too, and the price of one message per channel (paise).
 * - report_links: one per released version of a sample's report; revoked or replaced (an amended
 *   report's newer link) as a whole; counts wrong answers (a link closes after too many).
 * - report_link_tokens: the tokens handed out for a link (each message, each "copy link"), only
 *   the SHA-256 of each, with its own expiry.
 * - report_link_opens: every open of a link page, proof, refusal and download: when and from where.
 * - patient_report_consents: per patient the preferred channel, the consent (who recorded it and
 *   when, withdrawn when) and a number to send to that may be someone else's (a parent's).
 * - report_deliveries: the ledger, one row per report version, recipient and channel tried:
 *   held (bill due), queued, sending, sent, delivered, read, failed; a fallback names the row it
 *   replaces. Holds the address and the provider's message id, never the report's content.
 */
export const sql = /* sql */ `
CREATE TABLE report_delivery_settings (
  organization_id INTEGER PRIMARY KEY REFERENCES organizations(id),
  enabled INTEGER NOT NULL DEFAULT 0,
  link_days INTEGER NOT NULL DEFAULT 7,
  proof TEXT NOT NULL DEFAULT 'birth_year' CHECK (proof IN ('birth_year','mobile_last4','otp')),
  send_to_doctors INTEGER NOT NULL DEFAULT 0,
  email_mode TEXT NOT NULL DEFAULT 'link' CHECK (email_mode IN ('link','attach')),
  fallback_channel TEXT NOT NULL DEFAULT 'sms' CHECK (fallback_channel IN ('sms','email','none')),
  whatsapp_base_url TEXT NOT NULL DEFAULT 'https://graph.facebook.com/v20.0',
  whatsapp_phone_number_id TEXT,
  whatsapp_token TEXT,
  whatsapp_app_secret TEXT,
  whatsapp_verify_token TEXT,
  whatsapp_template TEXT,
  whatsapp_language TEXT NOT NULL DEFAULT 'en',
  price_whatsapp_paise INTEGER NOT NULL DEFAULT 0,
  price_sms_paise INTEGER NOT NULL DEFAULT 0,
  price_email_paise INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT,
  updated_by INTEGER REFERENCES users(id)
);

CREATE TABLE report_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  version INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  revoked_by INTEGER REFERENCES users(id),
  replaced_by INTEGER REFERENCES report_links(id),
  failures INTEGER NOT NULL DEFAULT 0,
  otp_hash TEXT,
  otp_expires_at TEXT,
  otp_sent_at TEXT
);
CREATE UNIQUE INDEX report_links_version ON report_links (sample_id, version);
CREATE INDEX report_links_lab ON report_links (organization_id, created_at);

CREATE TABLE report_link_tokens (
  token_hash TEXT PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  link_id INTEGER NOT NULL REFERENCES report_links(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX report_link_tokens_link ON report_link_tokens (link_id);

CREATE TABLE report_link_opens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  link_id INTEGER NOT NULL REFERENCES report_links(id),
  at TEXT NOT NULL,
  address TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('opened','proved','refused','downloaded','gone'))
);
CREATE INDEX report_link_opens_link ON report_link_opens (link_id, at);

CREATE TABLE patient_report_consents (
  patient_id INTEGER PRIMARY KEY REFERENCES patients(id) ON DELETE CASCADE,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  channel TEXT NOT NULL CHECK (channel IN ('whatsapp','sms','email','none')),
  recipient_phone TEXT,
  consent_at TEXT,
  consent_by INTEGER REFERENCES users(id),
  withdrawn_at TEXT,
  withdrawn_by INTEGER REFERENCES users(id),
  updated_at TEXT NOT NULL
);

CREATE TABLE report_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  link_id INTEGER NOT NULL REFERENCES report_links(id),
  recipient_kind TEXT NOT NULL CHECK (recipient_kind IN ('patient','doctor')),
  channel TEXT NOT NULL CHECK (channel IN ('whatsapp','sms','email')),
  recipient TEXT NOT NULL,
  amended INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('held','queued','sending','sent','delivered','read','failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  claimed_at TEXT,
  provider_id TEXT,
  last_error TEXT,
  fallback_of INTEGER REFERENCES report_deliveries(id),
  price_paise INTEGER NOT NULL DEFAULT 0,
  requested_by INTEGER REFERENCES users(id),
  created_at TEXT NOT NULL,
  sent_at TEXT,
  delivered_at TEXT,
  read_at TEXT,
  failed_at TEXT
);
CREATE INDEX report_deliveries_due ON report_deliveries (status, next_attempt_at);
CREATE INDEX report_deliveries_sample ON report_deliveries (organization_id, sample_id);
CREATE INDEX report_deliveries_link ON report_deliveries (link_id);
CREATE INDEX report_deliveries_provider ON report_deliveries (provider_id);
CREATE INDEX report_deliveries_lab_day ON report_deliveries (organization_id, created_at);
`;
