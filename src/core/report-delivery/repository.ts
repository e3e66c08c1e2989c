import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { dueIdsOfOpenLabs } from '../tenants/service.js';
import type { PatientReportConsentsTable, ReportDeliveriesTable, ReportDeliverySettingsTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable, labUpdate } from '../db/lab-tables.js';

/** The SQL of report delivery: the lab's settings, consents and the delivery ledger. */

export function settingsRow(db: Db, organizationId: number) {
  return labRows(db, 'report_delivery_settings', organizationId).executeTakeFirst();
}
export type DeliverySettingsRow = NonNullable<Awaited<ReturnType<typeof settingsRow>>>;

export async function saveSettingsRow(
  db: Db,
  row: Insertable<ReportDeliverySettingsTable>,
  exists: boolean,
): Promise<void> {
  if (exists)
    await db
      .updateTable('report_delivery_settings')
      .set(row)
      .where('organization_id', '=', row.organization_id)
      .execute();
  else await db.insertInto('report_delivery_settings').values(row).execute();
}

export function consentRow(db: Db, organizationId: number, patientId: number) {
  return db
    .selectFrom('patient_report_consents as c')
    .leftJoin('users as u', 'u.id', 'c.consent_by')
    .selectAll('c')
    .select(['u.first_name as by_first', 'u.last_name as by_last'])
    .where('c.organization_id', '=', organizationId)
    .where('c.patient_id', '=', patientId)
    .executeTakeFirst();
}

export async function saveConsentRow(
  db: Db,
  row: Insertable<PatientReportConsentsTable>,
  exists: boolean,
): Promise<void> {
  if (exists)
    await db.updateTable('patient_report_consents').set(row).where('patient_id', '=', row.patient_id).execute();
  else await db.insertInto('patient_report_consents').values(row).execute();
}

export async function insertDeliveries(trx: Db, rows: Insertable<ReportDeliveriesTable>[]): Promise<void> {
  if (rows.length) await trx.insertInto('report_deliveries').values(rows).execute();
}

export function deliveryById(db: Db, id: number) {
  return db.selectFrom('report_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}
export type DeliveryLedgerRow = NonNullable<Awaited<ReturnType<typeof deliveryById>>>;

/** The first messages of a link (not fallbacks, not sent again): who was already told of this version. */
export async function toldOfLink(trx: Db, linkId: number): Promise<Set<string>> {
  const rows = await trx
    .selectFrom('report_deliveries')
    .select('recipient_kind')
    .where('link_id', '=', linkId)
    .where('fallback_of', 'is', null)
    .where('requested_by', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.recipient_kind));
}

export function deliveriesOfSamples(db: Db, organizationId: number, sampleIds: number[]) {
  if (!sampleIds.length) return Promise.resolve([]);
  return labRows(db, 'report_deliveries', organizationId).where('sample_id', 'in', sampleIds).orderBy('id').execute();
}

/** Held messages of samples become due now (the bill was paid). */
export async function releaseHeldOf(trx: Db, organizationId: number, sampleIds: number[], now: string) {
  if (!sampleIds.length) return 0;
  const r = await labUpdate(trx, 'report_deliveries', organizationId)
    .set({ status: 'queued', next_attempt_at: now })
    .where('sample_id', 'in', sampleIds)
    .where('status', '=', 'held')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Messages due at `nowIso` (queued, their next attempt reached), oldest first; every open lab's. */
export function dueDeliveryIds(db: Db, nowIso: string, limit: number): Promise<number[]> {
  return dueIdsOfOpenLabs(db, 'report_deliveries', nowIso, limit);
}

/**
 * Claims one message: queued -> sending in one conditional UPDATE, counting the attempt. Of two
 * servers claiming the same row the database lets one UPDATE match (PostgreSQL re-checks the WHERE
 * on the committed row; SQLite has one writer): the other gets undefined and moves on.
 */
export async function claimDelivery(db: Db, id: number, nowIso: string) {
  const result = await db
    .updateTable('report_deliveries')
    .set((eb) => ({ status: 'sending', claimed_at: nowIso, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return deliveryById(db, id);
}

export async function updateDelivery(db: Db, id: number, patch: Updateable<ReportDeliveriesTable>): Promise<void> {
  await db.updateTable('report_deliveries').set(patch).where('id', '=', id).execute();
}

/** Claims older than `staleIso` belong to a server that stopped mid-send: queued again. */
export async function releaseStaleDeliveries(db: Db, staleIso: string, nowIso: string): Promise<number> {
  const r = await db
    .updateTable('report_deliveries')
    .set({ status: 'queued', claimed_at: null, next_attempt_at: nowIso })
    .where('status', '=', 'sending')
    .where('claimed_at', '<', staleIso)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A provider's status for its message id moves the row on; never backwards (read stays read). */
export async function deliveryByProviderId(db: Db, organizationId: number, providerId: string) {
  return labRows(db, 'report_deliveries', organizationId).where('provider_id', '=', providerId).executeTakeFirst();
}

/** Messages handed to a provider in [startIso, endIso) per channel, with their cost (paise). */
export async function costRows(db: Db, organizationId: number, startIso: string, endIso: string) {
  return labTable(db, 'report_deliveries', organizationId)
    .select((eb) => ['channel', eb.fn.countAll<number>().as('messages'), eb.fn.sum<number>('price_paise').as('paise')])
    .where('sent_at', '>=', startIso)
    .where('sent_at', '<', endIso)
    .groupBy('channel')
    .orderBy('channel')
    .execute();
}

/** The reports released in [start, end) with their patient and the latest link version (the front desk's day). */
export function releasedBetween(db: Db, organizationId: number, start: string, end: string) {
  return db
    .selectFrom('samples as s')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .leftJoin('patient_report_consents as c', 'c.patient_id', 's.patient_id')
    .select((eb) => [
      's.id',
      's.sample_code',
      's.reported_at',
      's.patient_id',
      'p.first_name',
      'p.last_name',
      'p.patient_code',
      'c.channel',
      'c.consent_at',
      'c.withdrawn_at',
      eb
        .selectFrom('report_links as l')
        .select((e) => e.fn.max('l.version').as('v'))
        .whereRef('l.sample_id', '=', 's.id')
        .as('version'),
    ])
    .where('s.organization_id', '=', organizationId)
    .where('s.status', '=', 'completed')
    .where('s.reported_at', '>=', start)
    .where('s.reported_at', '<', end)
    .orderBy('s.reported_at', 'desc')
    .limit(500)
    .execute();
}
