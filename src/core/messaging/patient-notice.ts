import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import type { OrganizationRow } from '../settings/service.js';
import { insertOutboxRows } from './repository.js';
import { channelsOf, realEmail, realPhone } from './outbox.js';
import { smsNumber, smsText } from './sms.js';

/** A message to one patient about their own appointment (a home visit booked, moved, assigned). */
export interface PatientNotice {
  kind: string;
  phone: string | null;
  email: string | null;
  subject: string;
  /** The text of the SMS; the email says the same, addressed and signed. */
  text: string;
  greeting: string;
}

/**
 * Queued in the outbox inside the transaction of the change, by SMS when a gateway is saved and by
 * email when a mail server is: a patient who gave a number expects to hear of their own booking, so
 * no notification switch stands in the way (the switches are for the lab's staff and for reports).
 * Answers how many messages were queued; nothing is logged (the rows name the patient).
 */
export async function queuePatientNotice(trx: Db, org: OrganizationRow, n: PatientNotice): Promise<number> {
  const on = await channelsOf(trx, org, { email: true, sms: true });
  const now = nowIso();
  const base = { organization_id: org.id, kind: n.kind, dedupe_key: null, next_attempt_at: now, created_at: now };
  const rows = [];
  if (on.sms && realPhone(n.phone))
    rows.push({
      ...base,
      channel: 'sms' as const,
      recipient: smsNumber(n.phone),
      subject: null,
      body: smsText(`${org.name}: ${n.text}`),
    });
  if (on.email && realEmail(n.email))
    rows.push({
      ...base,
      channel: 'email' as const,
      recipient: n.email.toLowerCase(),
      subject: `${n.subject}: ${org.name}`,
      body: [n.greeting, '', n.text, '', '--', [org.name, org.phone, org.address].filter(Boolean).join('\n')].join(
        '\n',
      ),
    });
  await insertOutboxRows(trx, rows);
  return rows.length;
}
