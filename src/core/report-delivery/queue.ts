import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { reportHead, uncalledCriticals } from '../results/entry-repository.js';
import { findPatient } from '../patients/repository.js';
import { findBillRow } from '../billing/repository.js';
import { findUser } from '../users/repository.js';
import { findSampleRow, sampleIdsOfBill } from '../samples/repository.js';
import { consentOf } from './consent.js';
import { smsRow, smtpRow } from '../messaging/repository.js';
import { realEmail, realPhone, smsNumber } from '../messaging/service.js';
import { insertDeliveries, releaseHeldOf, toldOfLink } from './repository.js';
import { latestLinkOf } from './links-repository.js';
import { deliveryConfig, whatsappReady, type DeliveryConfig } from './settings.js';
import type { DeliveryChannel, ReportDeliveriesTable } from './tables.js';

/**
 * When a report goes, decided inside the transaction of the event that made it ready (the
 * release, the critical call, the payment), and queued in the ledger for the sender:
 * - only a released report (every ordered test verified): never an interim one;
 * - not while a critical value waits for its telephone call (the call's event queues it);
 * - held while its bill has money due, when the lab holds reports until paid: the rows wait as
 *   'held' and the payment that clears the bill queues them;
 * - to the patient only with their consent, on their channel, to the number they gave;
 * - to the referring doctor when the lab turns it on and the doctor has a number or an address;
 * - once per report version and recipient; an amended report (a new version) goes again, marked.
 */

/** The channels a lab can send on now: switched on and set up. */
export async function readyChannels(db: Db, config: DeliveryConfig): Promise<Set<DeliveryChannel>> {
  const on = new Set<DeliveryChannel>();
  if (whatsappReady(config)) on.add('whatsapp');
  if (config.sms_on === 1 && (await smsRow(db, config.organization_id))) on.add('sms');
  if (config.email_on === 1 && (await smtpRow(db, config.organization_id))) on.add('email');
  return on;
}

export interface Addresses {
  phone: string | null;
  email: string | null;
}

/** The address a channel sends to, when the person has one. */
export function addressOn(channel: DeliveryChannel, a: Addresses): string | null {
  if (channel === 'email') return realEmail(a.email) ? a.email.toLowerCase() : null;
  return realPhone(a.phone) ? smsNumber(a.phone) : null;
}

/** The first of the wanted channels the lab can send on and the person can be reached by. */
export function pickChannel(
  wanted: DeliveryChannel[],
  ready: Set<DeliveryChannel>,
  a: Addresses,
): { channel: DeliveryChannel; recipient: string } | null {
  for (const channel of wanted) {
    if (!ready.has(channel)) continue;
    const recipient = addressOn(channel, a);
    if (recipient) return { channel, recipient };
  }
  return null;
}

/** The channel after `channel` when it fails or cannot be used: the lab's fallback, never the same. */
export function fallbackOf(config: DeliveryConfig, channel: DeliveryChannel): DeliveryChannel | null {
  const f = config.fallback_channel;
  return f === 'none' || f === channel ? null : f;
}

/** Queues the messages of a sample's current report version that are due and not yet queued; answers how many. */
export async function queueReport(trx: Db, organizationId: number, sampleId: number, now: string): Promise<number> {
  const config = await deliveryConfig(trx, organizationId);
  if (config.enabled !== 1) return 0;
  const head = await reportHead(trx, organizationId, sampleId);
  if (!head || head.status !== 'completed' || !head.reported_at) return 0;
  if ((await uncalledCriticals(trx, sampleId)).length) return 0;
  const link = await latestLinkOf(trx, organizationId, sampleId);
  if (!link || link.revoked_at) return 0;
  const told = await toldOfLink(trx, link.id);
  const org = await getOrganization(trx, organizationId);
  const due = head.bill_cancelled_at ? 0 : (head.final_amount_paise ?? 0) - (head.paid_paise ?? 0);
  const held = settingsOf(org).holdReportsUntilPaid && due > 0 && !head.released_at;
  const ready = await readyChannels(trx, config);
  const rows: Insertable<ReportDeliveriesTable>[] = [];
  const add = (kind: 'patient' | 'doctor', to: { channel: DeliveryChannel; recipient: string }) =>
    rows.push({
      organization_id: organizationId,
      sample_id: sampleId,
      link_id: link.id,
      recipient_kind: kind,
      channel: to.channel,
      recipient: to.recipient,
      amended: link.version > 1 ? 1 : 0,
      status: held ? 'held' : 'queued',
      next_attempt_at: now,
      claimed_at: null,
      provider_id: null,
      last_error: null,
      fallback_of: null,
      requested_by: null,
      created_at: now,
    });

  if (!told.has('patient')) {
    const to = await patientTarget(trx, organizationId, head.patient_id, config, ready);
    if (to) add('patient', to);
  }
  if (config.send_to_doctors === 1 && !told.has('doctor') && head.bill_number) {
    const to = await doctorTarget(trx, organizationId, sampleId, ready);
    if (to) add('doctor', to);
  }
  await insertDeliveries(trx, rows);
  return rows.length;
}

/** Where the patient's message goes: their channel (else the lab's fallback), with their consent only. */
export async function patientTarget(
  trx: Db,
  organizationId: number,
  patientId: number,
  config: DeliveryConfig,
  ready: Set<DeliveryChannel>,
  channel?: DeliveryChannel,
): Promise<{ channel: DeliveryChannel; recipient: string } | null> {
  const consent = await consentOf(trx, organizationId, patientId);
  if (!consent) return null;
  const patient = await findPatient(trx, organizationId, patientId);
  if (!patient) return null;
  const preferred = channel ?? (consent.channel as DeliveryChannel);
  const fallback = channel ? null : fallbackOf(config, preferred);
  return pickChannel(fallback ? [preferred, fallback] : [preferred], ready, {
    phone: consent.recipientPhone ?? patient.phone,
    email: patient.email,
  });
}

async function doctorTarget(trx: Db, organizationId: number, sampleId: number, ready: Set<DeliveryChannel>) {
  const sample = await findSampleRow(trx, organizationId, { id: sampleId });
  const bill = sample?.bill_id ? await findBillRow(trx, organizationId, sample.bill_id) : undefined;
  const doctor = bill?.doctor_id ? await findUser(trx, organizationId, bill.doctor_id) : undefined;
  if (!doctor || doctor.is_active !== 1) return null;
  return pickChannel(['whatsapp', 'sms', 'email'], ready, { phone: doctor.phone, email: doctor.email });
}

/**
 * Who will be sent this report's link, as queueReport decides it (the lab sends by link, a channel
 * the person can be reached on, the patient's consent, doctors when turned on): the portal's
 * "report ready" notice is not sent to them as well, so nobody hears twice of one report. Read
 * without the link itself, so the answer does not depend on which listener of the release runs first.
 */
export async function linkMessageRecipients(
  trx: Db,
  organizationId: number,
  sampleId: number,
): Promise<{ patient: boolean; doctor: boolean }> {
  const config = await deliveryConfig(trx, organizationId);
  const head = config.enabled === 1 ? await reportHead(trx, organizationId, sampleId) : undefined;
  if (!head) return { patient: false, doctor: false };
  const ready = await readyChannels(trx, config);
  return {
    patient: (await patientTarget(trx, organizationId, head.patient_id, config, ready)) !== null,
    doctor:
      config.send_to_doctors === 1 &&
      !!head.bill_number &&
      (await doctorTarget(trx, organizationId, sampleId, ready)) !== null,
  };
}

/** A payment cleared the bill: the held messages of its samples' reports go now. */
export async function releaseHeldForBill(
  trx: Db,
  organizationId: number,
  billId: number,
  now: string,
): Promise<number> {
  const bill = await findBillRow(trx, organizationId, billId);
  if (!bill || bill.final_amount_paise - bill.paid_paise > 0) return 0;
  const samples = await sampleIdsOfBill(trx, organizationId, billId);
  return releaseHeldOf(
    trx,
    organizationId,
    samples.map((s) => s.id),
    now,
  );
}
