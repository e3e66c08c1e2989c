/** Kysely table types of report delivery (migration 52). Timestamps are ISO-8601 UTC strings. */
import type { Generated } from 'kysely';

export type DeliveryChannel = 'whatsapp' | 'sms' | 'email';
export type DeliveryStatus = 'held' | 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed';
export type LinkProof = 'birth_year' | 'mobile_last4' | 'otp';

export interface ReportDeliverySettingsTable {
  organization_id: number;
  enabled: Generated<number>;
  link_days: Generated<number>;
  proof: Generated<LinkProof>;
  send_to_doctors: Generated<number>;
  email_mode: Generated<'link' | 'attach'>;
  fallback_channel: Generated<'sms' | 'email' | 'none'>;
  whatsapp_base_url: Generated<string>;
  whatsapp_phone_number_id: string | null;
  /** The Cloud API's access token: sent as the bearer, never answered by the API nor logged. */
  whatsapp_token: string | null;
  /** The Meta app's secret: the key of X-Hub-Signature-256 on status webhooks; never answered. */
  whatsapp_app_secret: string | null;
  /** What Meta echoes when it checks the webhook's address (hub.verify_token). */
  whatsapp_verify_token: string | null;
  whatsapp_template: string | null;
  whatsapp_language: Generated<string>;
  price_whatsapp_paise: Generated<number>;
  price_sms_paise: Generated<number>;
  price_email_paise: Generated<number>;
  whatsapp_on: Generated<number>;
  sms_on: Generated<number>;
  email_on: Generated<number>;
  /** The authentication template the link page's one-time code goes by; none: codes go by SMS. */
  whatsapp_otp_template: string | null;
  /** The shared secret the SMS gateway's delivery reports carry; never answered. */
  sms_report_key: string | null;
  updated_at: string | null;
  updated_by: number | null;
}

export interface ReportLinksTable {
  id: Generated<number>;
  organization_id: number;
  sample_id: number;
  /** The report's print version (print_snapshots.version): 2 and up are amended reports. */
  version: number;
  created_at: string;
  revoked_at: string | null;
  revoked_by: number | null;
  /** The link of the amended report that replaced this one. */
  replaced_by: number | null;
  failures: Generated<number>;
  otp_hash: string | null;
  otp_expires_at: string | null;
  otp_sent_at: string | null;
}

export interface ReportLinkTokensTable {
  /** SHA-256 of the token, hex: the token itself is only in the message or on the screen that showed it. */
  token_hash: string;
  organization_id: number;
  link_id: number;
  created_at: string;
  expires_at: string;
}

export interface ReportLinkOpensTable {
  id: Generated<number>;
  organization_id: number;
  link_id: number;
  at: string;
  address: string | null;
  outcome: 'opened' | 'proved' | 'refused' | 'downloaded' | 'gone';
}

export interface PatientReportConsentsTable {
  patient_id: number;
  organization_id: number;
  channel: DeliveryChannel | 'none';
  /** Where messages go when not the patient's own number (a parent's); null: the patient's phone. */
  recipient_phone: string | null;
  consent_at: string | null;
  consent_by: number | null;
  withdrawn_at: string | null;
  withdrawn_by: number | null;
  updated_at: string;
}

export interface ReportDeliveriesTable {
  id: Generated<number>;
  organization_id: number;
  sample_id: number;
  link_id: number;
  recipient_kind: 'patient' | 'doctor';
  channel: DeliveryChannel;
  /** A phone number (digits, a leading +) or an email address. */
  recipient: string;
  amended: Generated<number>;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** When a sender claimed it ('sending'); a claim older than a few minutes was cut short. */
  claimed_at: string | null;
  /** The provider's message id (WhatsApp's wamid): its status webhooks name it. */
  provider_id: string | null;
  /** The last failure in fixed words, the recipient's address taken out. */
  last_error: string | null;
  fallback_of: number | null;
  /** The lab's price of one message on this channel when it was sent (costs per month). */
  price_paise: Generated<number>;
  /** Who asked for it again at the front desk; null: sent on release. */
  requested_by: number | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
}

declare module '../db/schema.js' {
  interface DB {
    report_delivery_settings: ReportDeliverySettingsTable;
    report_links: ReportLinksTable;
    report_link_tokens: ReportLinkTokensTable;
    report_link_opens: ReportLinkOpensTable;
    patient_report_consents: PatientReportConsentsTable;
    report_deliveries: ReportDeliveriesTable;
  }
}
