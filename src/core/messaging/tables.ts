import type { Generated } from 'kysely';

/** Kysely table types of lab email and SMS. Timestamps are ISO-8601 UTC strings. */

export interface SmtpSettingsTable {
  organization_id: number;
  host: string;
  port: number;
  security: 'none' | 'starttls' | 'tls';
  username: string | null;
  /** Sent to the mail server; never answered by the API nor logged. */
  password: string | null;
  from_address: string;
  from_name: string | null;
  updated_at: string;
  updated_by: number | null;
}

export interface SmsGatewaysTable {
  organization_id: number;
  method: 'GET' | 'POST';
  /** With {to} and {message} (and {key}) placeholders, substituted URL-encoded. */
  url_template: string;
  body_template: string | null;
  body_type: Generated<'form' | 'json'>;
  header_name: string | null;
  /** The gateway's key: sent in header_name and for {key}; never answered by the API nor logged. */
  api_key: string | null;
  updated_at: string;
  updated_by: number | null;
}

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface OutboxTable {
  id: Generated<number>;
  organization_id: number;
  channel: 'email' | 'sms';
  /** What the message is about: a notification kind, or report_ready. */
  kind: string;
  /** An email address or a phone number (digits, a leading +). */
  recipient: string;
  subject: string | null;
  body: string;
  dedupe_key: string | null;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  /** The last failure, with the recipient's address taken out. */
  last_error: string | null;
  next_attempt_at: string;
  /** When a sender claimed it ('sending'); a claim older than a few minutes was cut short. */
  claimed_at: string | null;
  created_at: string;
  sent_at: string | null;
  /** One file sent with an email (a centre's statement PDF): its name, MIME type and bytes in base64. */
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_base64: string | null;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    smtp_settings: SmtpSettingsTable;
    sms_gateways: SmsGatewaysTable;
    outbox: OutboxTable;
  }
}
