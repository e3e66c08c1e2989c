/**
 * Report delivery, per channel: each of WhatsApp, SMS and email can be switched off on its own
 * while the others go on sending (a lab whose WhatsApp number is blocked keeps SMS), without
 * removing the channel's account. Existing labs keep every channel on, as they sent before.
 * And the WhatsApp authentication template the link page's one-time code goes by (Meta sends a code
 * only through a template of that category, not the report template).
 * And the key the SMS gateway's delivery reports carry (most gateways cannot sign a callback; a
 * shared secret in the callback's address or a header is what they can send).
 */
export const sql = /* sql */ `
ALTER TABLE report_delivery_settings ADD COLUMN whatsapp_on INTEGER NOT NULL DEFAULT 1;
ALTER TABLE report_delivery_settings ADD COLUMN sms_on INTEGER NOT NULL DEFAULT 1;
ALTER TABLE report_delivery_settings ADD COLUMN email_on INTEGER NOT NULL DEFAULT 1;
ALTER TABLE report_delivery_settings ADD COLUMN whatsapp_otp_template TEXT;
ALTER TABLE report_delivery_settings ADD COLUMN sms_report_key TEXT;
`;
