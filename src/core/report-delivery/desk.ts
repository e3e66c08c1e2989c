import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { findSampleRow } from '../samples/repository.js';
import { lastOpenedAt, latestLinkOf, opensOf, updateLink } from './links-repository.js';
import {
  costRows,
  deliveriesOfSamples,
  insertDeliveries,
  releasedBetween,
  type DeliveryLedgerRow,
} from './repository.js';
import { patientTarget, readyChannels } from './queue.js';
import { organizationTimezone } from '../settings/service.js';
import { labDayBounds, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { paiseToRupees } from '../../shared/money.js';
import type { ChannelCost, DeskReport } from '../../shared/schemas/report-delivery.js';
import type { DeliveryChannel } from './tables.js';
import { linkUrl, mintToken } from './tokens.js';
import { deliveryConfig } from './settings.js';

/**
 * The front desk's hand on a sample's link: copy it (a new token, to read out or paste into a
 * chat), revoke it, and see its opens. Audited without the token.
 */

async function currentLink(db: Db, organizationId: number, sampleId: number) {
  const sample = await findSampleRow(db, organizationId, { id: sampleId });
  if (!sample) throw new NotFoundError('Sample', sampleId);
  const link = await latestLinkOf(db, organizationId, sampleId);
  if (!link)
    throw new ConflictError(
      `Sample ${sample.sample_code} has no report link: its report is not released, or the lab does not send reports by link`,
      'NO_REPORT_LINK',
    );
  return { sample, link };
}

/** A fresh token for the sample's current link; a link closed by wrong answers opens again. */
export async function copyLink(
  db: Db,
  actor: Actor,
  sampleId: number,
  requestBase: string | null,
): Promise<{ url: string; expires_at: string }> {
  return db.transaction().execute(async (trx) => {
    const { sample, link } = await currentLink(trx, actor.organizationId, sampleId);
    const config = await deliveryConfig(trx, actor.organizationId);
    const minted = await mintToken(trx, link, config.link_days, new Date());
    const url = await linkUrl(trx, actor.organizationId, minted.token, requestBase);
    if (!url) throw new ConflictError("Set the lab's public address in Lab Reports settings first", 'NO_PUBLIC_URL');
    if (Number(link.failures) > 0) await updateLink(trx, link.id, { failures: 0 });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'report_link',
      entityId: link.id,
      newValues: {
        sample: sample.sample_code,
        version: link.version,
        handed_out: 'copied',
        expires_at: minted.expiresAt,
      },
    });
    return { url, expires_at: minted.expiresAt };
  });
}

/** Every token of the sample's current link handed out so far stops opening (410 revoked). */
export async function revokeLink(db: Db, actor: Actor, sampleId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { sample, link } = await currentLink(trx, actor.organizationId, sampleId);
    const now = nowIso();
    await updateLink(trx, link.id, { revoked_at: now, revoked_by: actor.userId });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'report_link',
      entityId: link.id,
      oldValues: { revoked_at: link.revoked_at },
      newValues: { sample: sample.sample_code, version: link.version, revoked_at: now },
    });
  });
}

/** The opens of the sample's current link: when, from where, what happened. */
export async function linkOpens(db: Db, organizationId: number, sampleId: number) {
  const { link } = await currentLink(db, organizationId, sampleId);
  return (await opensOf(db, link.id)).map((o) => ({ at: o.at, address: o.address, outcome: o.outcome }));
}

const mask = (r: string) =>
  r.includes('@') ? `${r[0]}***${r.slice(r.indexOf('@'))}` : `${'*'.repeat(Math.max(0, r.length - 4))}${r.slice(-4)}`;

/** Where a report stands for the patient: what the best of its messages reached. */
function stateOf(rows: DeliveryLedgerRow[]): DeskReport['state'] {
  const mine = rows.filter((r) => r.recipient_kind === 'patient');
  if (mine.some((r) => r.status === 'delivered' || r.status === 'read')) return 'received';
  if (mine.some((r) => r.status === 'sent')) return 'sent';
  if (mine.some((r) => r.status === 'queued' || r.status === 'sending')) return 'waiting';
  if (mine.some((r) => r.status === 'held')) return 'held';
  if (mine.some((r) => r.status === 'failed')) return 'failed';
  return 'none';
}

/** The front desk's day: reports released that lab day, each with its messages and whether it was opened. */
export async function deskDay(
  db: Db,
  organizationId: number,
  q: { day?: string | undefined; only?: 'all' | 'not_received' | undefined },
): Promise<{ day: string; reports: DeskReport[] }> {
  const tz = await organizationTimezone(db, organizationId);
  const day = q.day ?? localDate(tz);
  const [bounds] = labDayBounds(tz, [day]);
  const rows = await releasedBetween(db, organizationId, bounds!.start, bounds!.end);
  const ids = rows.map((r) => Number(r.id));
  const ledger = await deliveriesOfSamples(db, organizationId, ids);
  const opened = await lastOpenedAt(db, organizationId, ids);
  const reports = rows.map((r): DeskReport => {
    const version = r.version === null || r.version === undefined ? null : Number(r.version);
    const mine = ledger.filter((x) => Number(x.sample_id) === Number(r.id));
    const current = version === null ? mine : mine.filter((x) => x.amended === (version > 1 ? 1 : 0));
    return {
      sample_id: Number(r.id),
      sample_code: r.sample_code,
      patient_name: `${r.first_name} ${r.last_name}`.trim(),
      patient_code: r.patient_code,
      reported_at: r.reported_at!,
      version,
      state: opened.has(Number(r.id)) ? 'received' : stateOf(current),
      channel: r.channel ?? null,
      consent: !!r.consent_at && !r.withdrawn_at,
      opened_at: opened.get(Number(r.id)) ?? null,
      deliveries: mine.map((x) => ({
        id: Number(x.id),
        recipient_kind: x.recipient_kind,
        channel: x.channel,
        recipient: mask(x.recipient),
        status: x.status,
        amended: x.amended === 1,
        attempts: Number(x.attempts),
        last_error: x.last_error,
        fallback_of: x.fallback_of === null ? null : Number(x.fallback_of),
        created_at: x.created_at,
        sent_at: x.sent_at,
        delivered_at: x.delivered_at,
        read_at: x.read_at,
      })),
    };
  });
  return { day, reports: q.only === 'not_received' ? reports.filter((r) => r.state !== 'received') : reports };
}

/**
 * Sends the sample's current report to the patient again, on the channel asked (else theirs), with
 * their consent only; it goes even when the bill has dues (staff chose to hand it over), and after a
 * revoke (its token is new, as a copied one is).
 */
export async function resend(
  db: Db,
  actor: Actor,
  sampleId: number,
  channel: DeliveryChannel | undefined,
): Promise<{ queued: number }> {
  return db.transaction().execute(async (trx) => {
    const { sample, link } = await currentLink(trx, actor.organizationId, sampleId);
    const config = await deliveryConfig(trx, actor.organizationId);
    const ready = await readyChannels(trx, config);
    const to = await patientTarget(trx, actor.organizationId, sample.patient_id, config, ready, channel);
    if (!to)
      throw new ConflictError(
        channel
          ? `The patient cannot be sent the report by ${channel}: no consent, no ${channel === 'email' ? 'email address' : 'number'}, or ${channel} is not set up`
          : 'The patient has not consented to messages, or has no number or address on their channel',
        'CANNOT_SEND',
      );
    const now = nowIso();
    await insertDeliveries(trx, [
      {
        organization_id: actor.organizationId,
        sample_id: sampleId,
        link_id: link.id,
        recipient_kind: 'patient',
        channel: to.channel,
        recipient: to.recipient,
        amended: link.version > 1 ? 1 : 0,
        status: 'queued',
        next_attempt_at: now,
        claimed_at: null,
        provider_id: null,
        last_error: null,
        fallback_of: null,
        requested_by: actor.userId,
        created_at: now,
      },
    ]);
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'report_delivery',
      entityId: sampleId,
      newValues: { sample: sample.sample_code, channel: to.channel, sent_again: true },
    });
    return { queued: 1 };
  });
}

/** Messages handed to a provider per month and channel, and what they cost at the lab's prices then. */
export async function channelCosts(
  db: Db,
  organizationId: number,
  months = 6,
  now = new Date(),
): Promise<ChannelCost[]> {
  const timeZone = await organizationTimezone(db, organizationId);
  const [y, m] = localDate(timeZone, now).split('-').map(Number) as [number, number];
  const out: ChannelCost[] = [];
  for (let back = months - 1; back >= 0; back -= 1) {
    const first = new Date(Date.UTC(y, m - 1 - back, 1));
    const next = new Date(Date.UTC(y, m - back, 1));
    const month = first.toISOString().slice(0, 7);
    // A month of the lab's calendar: from its 1st at midnight where the lab is to the next 1st's.
    const start = startOfLocalDayUtc(timeZone, `${month}-01`).toISOString();
    const end = startOfLocalDayUtc(timeZone, next.toISOString().slice(0, 10)).toISOString();
    for (const r of await costRows(db, organizationId, start, end))
      out.push({ month, channel: r.channel, messages: Number(r.messages), cost: paiseToRupees(Number(r.paise ?? 0)) });
  }
  return out;
}
