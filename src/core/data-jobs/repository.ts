import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { DataJobRow } from '../transfer/service.js';
import type { DataMappingsTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable, labUpdate } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/** SQL of the data screens: the jobs' lists and figures (data_jobs), saved mappings (data_mappings). */

export type DataMappingRow = Selectable<DataMappingsTable>;

export interface JobFilter {
  organizationId: number;
  /** The entities the user may see (never empty: the caller answers an empty page itself). */
  entities: readonly string[];
  type?: 'import' | 'export';
  status?: DataJobRow['status'];
  search?: string;
  checks: boolean;
}

function filtered(db: Db, f: JobFilter) {
  let q = db
    .selectFrom('data_jobs')
    .where('organization_id', '=', f.organizationId)
    .where('entity', 'in', [...f.entities]);
  if (!f.checks) q = q.where('dry_run', '=', 0);
  if (f.type) q = q.where('type', '=', f.type);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.search) {
    const like = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(coalesce(file_name, ''))`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(coalesce(requested_by_name, ''))`, 'like', sql`${like} escape '\\'`),
      ]),
    );
  }
  return q;
}

export async function jobPage(db: Db, f: JobFilter, page: number, limit: number): Promise<RowsPage<DataJobRow>> {
  const [rows, total] = await Promise.all([
    filtered(db, f).selectAll().orderBy('id', 'desc').$call(onPage({ page, limit })).execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export type SummaryRow = Pick<
  DataJobRow,
  | 'type'
  | 'entity'
  | 'format'
  | 'status'
  | 'origin'
  | 'dry_run'
  | 'records'
  | 'processed'
  | 'inserted'
  | 'updated'
  | 'errors'
  | 'file_size'
  | 'download_count'
  | 'requested_at'
  | 'started_at'
  | 'completed_at'
>;

/** Every job of the scope (checks included; the summary tells them apart), without their error lists. */
export function summaryRows(db: Db, f: Omit<JobFilter, 'checks' | 'status' | 'search'>): Promise<SummaryRow[]> {
  return filtered(db, { ...f, checks: true })
    .select([
      'type',
      'entity',
      'format',
      'status',
      'origin',
      'dry_run',
      'records',
      'processed',
      'inserted',
      'updated',
      'errors',
      'file_size',
      'download_count',
      'requested_at',
      'started_at',
      'completed_at',
    ])
    .execute();
}

/** The kept row errors of the scope's last refused imports and checks. */
export async function recentErrorReports(
  db: Db,
  f: Omit<JobFilter, 'checks' | 'status' | 'search' | 'type'>,
  limit: number,
): Promise<string[]> {
  const rows = await filtered(db, { ...f, checks: true, type: 'import' })
    .select('error_report')
    .where('error_report', 'is not', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.error_report!);
}

export async function countDownload(db: Db, organizationId: number, id: number): Promise<void> {
  await labUpdate(db, 'data_jobs', organizationId)
    .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Completed exports whose file is still kept, of every lab (the sweep of expired files). */
export function keptExportRows(
  db: Db,
): Promise<Pick<DataJobRow, 'id' | 'organization_id' | 'output_file' | 'completed_at'>[]> {
  return db
    .selectFrom('data_jobs')
    .select(['id', 'organization_id', 'output_file', 'completed_at'])
    .where('type', '=', 'export')
    .where('output_file', 'is not', null)
    .execute();
}

export async function forgetOutputFile(db: Db, id: number): Promise<void> {
  await db.updateTable('data_jobs').set({ output_file: null }).where('id', '=', id).execute();
}

export function mappingRows(db: Db, organizationId: number, entity?: string): Promise<DataMappingRow[]> {
  let q = labRows(db, 'data_mappings', organizationId);
  if (entity) q = q.where('entity', '=', entity);
  return q.orderBy('entity').orderBy('name').execute();
}

export function mappingRow(db: Db, organizationId: number, id: number): Promise<DataMappingRow | undefined> {
  return labRows(db, 'data_mappings', organizationId).where('id', '=', id).executeTakeFirst();
}

export function mappingByName(
  db: Db,
  organizationId: number,
  entity: string,
  name: string,
): Promise<DataMappingRow | undefined> {
  return labRows(db, 'data_mappings', organizationId)
    .where('entity', '=', entity)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertMapping(db: Db, values: Omit<DataMappingRow, 'id'>): Promise<number> {
  const r = await db.insertInto('data_mappings').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateMapping(db: Db, id: number, mapping: string, updatedAt: string): Promise<void> {
  await db.updateTable('data_mappings').set({ mapping, updated_at: updatedAt }).where('id', '=', id).execute();
}

export async function deleteMapping(db: Db, id: number): Promise<void> {
  await db.deleteFrom('data_mappings').where('id', '=', id).execute();
}

/** Names of users, for the mappings' "saved by". */
export async function userNames(db: Db, organizationId: number, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await labTable(db, 'users', organizationId).select(['id', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.email]));
}
