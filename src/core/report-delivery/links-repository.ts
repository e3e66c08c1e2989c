import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { ReportLinkOpensTable, ReportLinksTable } from './tables.js';
import { labRows } from '../db/joins.js';

/** The SQL of report links: the link per report version, its tokens (hashes only) and its opens. */

export function linkById(db: Db, id: number) {
  return db.selectFrom('report_links').selectAll().where('id', '=', id).executeTakeFirst();
}

export function linkOfVersion(db: Db, sampleId: number, version: number) {
  return db
    .selectFrom('report_links')
    .selectAll()
    .where('sample_id', '=', sampleId)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** The newest link of a sample (its latest report version). */
export function latestLinkOf(db: Db, organizationId: number, sampleId: number) {
  return labRows(db, 'report_links', organizationId)
    .where('sample_id', '=', sampleId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertLink(trx: Db, row: Insertable<ReportLinksTable>): Promise<number> {
  const r = await trx.insertInto('report_links').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateLink(db: Db, id: number, patch: Updateable<ReportLinksTable>): Promise<void> {
  await db.updateTable('report_links').set(patch).where('id', '=', id).execute();
}

/** Marks the sample's older links as replaced by `linkId` (an amended report's). */
export async function replaceOlderLinks(trx: Db, sampleId: number, linkId: number, version: number): Promise<void> {
  await trx
    .updateTable('report_links')
    .set({ replaced_by: linkId })
    .where('sample_id', '=', sampleId)
    .where('version', '<', version)
    .where('replaced_by', 'is', null)
    .execute();
}

/** One more wrong answer on a link, counted in the database (both servers see it); the new count. */
export async function countLinkFailure(db: Db, id: number): Promise<number> {
  const r = await db
    .updateTable('report_links')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(r.failures);
}

export async function insertToken(
  db: Db,
  row: { token_hash: string; organization_id: number; link_id: number; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('report_link_tokens').values(row).execute();
}

export function tokenByHash(db: Db, hash: string) {
  return db.selectFrom('report_link_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function insertOpen(db: Db, row: Insertable<ReportLinkOpensTable>): Promise<void> {
  await db.insertInto('report_link_opens').values(row).execute();
}

export function opensOf(db: Db, linkId: number) {
  return db.selectFrom('report_link_opens').selectAll().where('link_id', '=', linkId).orderBy('id').execute();
}

/** The latest open (of the page, any outcome) of each of these samples' links. */
export async function lastOpenedAt(db: Db, organizationId: number, sampleIds: number[]): Promise<Map<number, string>> {
  if (!sampleIds.length) return new Map();
  const rows = await db
    .selectFrom('report_link_opens as o')
    .innerJoin('report_links as l', 'l.id', 'o.link_id')
    .select(['l.sample_id', (eb) => eb.fn.max('o.at').as('at')])
    .where('o.organization_id', '=', organizationId)
    .where('l.sample_id', 'in', sampleIds)
    .where('o.outcome', 'in', ['proved', 'downloaded'])
    .groupBy('l.sample_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.sample_id), String(r.at)]));
}

/** Whether a token of the link was handed out after `iso` (a revoked link given out again). */
export async function tokenAfter(db: Db, linkId: number, iso: string): Promise<boolean> {
  const r = await db
    .selectFrom('report_link_tokens')
    .select('token_hash')
    .where('link_id', '=', linkId)
    .where('created_at', '>', iso)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}
