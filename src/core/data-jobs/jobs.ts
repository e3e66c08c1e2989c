import { createReadStream, existsSync, rmSync, type ReadStream } from 'node:fs';
import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, DomainError, NotFoundError } from '../errors.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { getJob, type DataJobRow, type ErrorGroup } from '../transfer/service.js';
import {
  countDownload,
  forgetOutputFile,
  jobPage,
  keptExportRows,
  recentErrorReports,
  summaryRows,
} from './repository.js';
import { addDays, localDate } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  type DataJob,
  type DataJobListQuery,
  type DataJobPage,
  type DataJobSummary,
} from '../../shared/schemas/data-jobs.js';
import { dataDirs, requireMove, visibleEntities, type Requester } from './access.js';
import { running } from './running.js';

/** Data jobs as the screens show them: the list, a job, its summary, Cancel, its file and its errors, and expired export files. */

// ---------------------------------------------------------------- jobs as the API shows them

export interface LabFacts {
  retentionDays: number;
}

export async function labFacts(db: Db, organizationId: number): Promise<LabFacts> {
  const org = await getOrganization(db, organizationId);
  return { retentionDays: settingsOf(org).backupRetention };
}

function expiresAt(row: DataJobRow, facts: LabFacts): string | null {
  if (row.type !== 'export' || !row.output_file || !row.completed_at) return null;
  return new Date(Date.parse(row.completed_at) + facts.retentionDays * 86_400_000).toISOString();
}

export function toApi(row: DataJobRow, facts: LabFacts): DataJob {
  const live = running.get(row.id);
  const inProgress = row.status === 'in_progress' || row.status === 'pending';
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    entity: row.entity,
    format: row.format,
    // A job given its turn runs at once: pending is shown only while it waits in the queue.
    status: row.status === 'pending' && live && !live.queued ? 'in_progress' : row.status,
    origin: row.origin,
    dry_run: row.dry_run === 1,
    file_name: row.file_name,
    file_size: row.file_size,
    records: row.records,
    processed: live && inProgress ? live.processed : row.processed,
    inserted: row.inserted,
    updated: row.updated,
    errors: live && inProgress ? live.errors : row.errors,
    error_message: row.error_message,
    requested_by: row.requested_by_name,
    requested_at: row.requested_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    download_count: row.download_count,
    downloadable: row.type === 'export' && row.status === 'completed' && row.output_file !== null,
    expires_at: expiresAt(row, facts),
    has_errors: row.error_report !== null || row.error_file !== null,
    cancellable: inProgress && live !== undefined,
    percent: live && inProgress ? live.percent : null,
  };
}

export async function listJobs(db: Db, r: Requester, q: DataJobListQuery): Promise<DataJobPage> {
  const entities = visibleEntities(r, q.entity);
  if (!entities.length) return { jobs: [], ...pageEnvelope(0, q.page, q.limit) };
  const facts = await labFacts(db, r.actor.organizationId);
  const { rows, total } = await jobPage(
    db,
    {
      organizationId: r.actor.organizationId,
      entities,
      type: q.type,
      status: q.status,
      search: q.search || undefined,
      checks: q.checks === '1',
    },
    q.page,
    q.limit,
  );
  return { jobs: rows.map((row) => toApi(row, facts)), ...pageEnvelope(total, q.page, q.limit) };
}

/** A job of the lab whose entity the user may see; 404 otherwise (another lab's jobs do not exist here). */
export async function visibleJob(db: Db, r: Requester, id: number): Promise<DataJobRow> {
  const row = await getJob(db, r.actor.organizationId, id);
  if (!row || !visibleEntities(r).includes(row.entity)) throw new NotFoundError('Data job', id);
  return row;
}

export async function jobById(db: Db, r: Requester, id: number): Promise<DataJob> {
  const row = await visibleJob(db, r, id);
  return toApi(row, await labFacts(db, r.actor.organizationId));
}

export async function jobSummary(
  db: Db,
  r: Requester,
  q: { type?: 'import' | 'export'; entity?: readonly string[] },
): Promise<DataJobSummary> {
  const entities = visibleEntities(r, q.entity);
  const org = await getOrganization(db, r.actor.organizationId);
  const today = localDate(org.timezone);
  const days = Array.from({ length: 14 }, (_, i) => addDays(today, i - 13));
  const s: DataJobSummary = {
    total: 0,
    imports: 0,
    exports: 0,
    completed: 0,
    failed: 0,
    running: 0,
    cancelled: 0,
    records_imported: 0,
    records_exported: 0,
    rows_checked: 0,
    row_errors: 0,
    bytes: 0,
    downloads: 0,
    success_rate: null,
    avg_seconds: null,
    by_entity: [],
    by_format: [],
    by_origin: { web: 0, cli: 0 },
    by_day: days.map((day) => ({ day, imports: 0, exports: 0 })),
    error_columns: [],
  };
  if (!entities.length) return s;
  const scope = { organizationId: r.actor.organizationId, entities, type: q.type };
  const rows = await summaryRows(db, scope);
  const byEntity = new Map<string, { entity: string; jobs: number; records: number; failed: number }>();
  const byFormat = new Map<DataJob['format'], number>();
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  let seconds = 0;
  let timed = 0;
  for (const j of rows) {
    const finished = j.status === 'completed' || j.status === 'failed';
    // Checks (dry runs) count as rows checked (Data Quality), not as jobs.
    if (j.type === 'import' && finished) {
      s.rows_checked += j.processed;
      s.row_errors += j.errors;
    }
    if (j.dry_run) continue;
    s.total += 1;
    if (j.type === 'import') s.imports += 1;
    else s.exports += 1;
    if (j.status === 'completed') s.completed += 1;
    else if (j.status === 'failed') s.failed += 1;
    else if (j.status === 'cancelled') s.cancelled += 1;
    else s.running += 1;
    const records = j.type === 'import' ? j.inserted + j.updated : (j.records ?? 0);
    if (j.status === 'completed') {
      if (j.type === 'import') s.records_imported += records;
      else s.records_exported += records;
    }
    s.bytes += j.file_size ?? 0;
    s.downloads += j.download_count;
    s.by_origin[j.origin] += 1;
    const e = byEntity.get(j.entity) ?? { entity: j.entity, jobs: 0, records: 0, failed: 0 };
    e.jobs += 1;
    if (j.status === 'completed') e.records += records;
    if (j.status === 'failed') e.failed += 1;
    byEntity.set(j.entity, e);
    byFormat.set(j.format, (byFormat.get(j.format) ?? 0) + 1);
    if (j.started_at && j.completed_at && j.status === 'completed') {
      seconds += Math.max(0, Date.parse(j.completed_at) - Date.parse(j.started_at)) / 1000;
      timed += 1;
    }
    const i = dayIndex.get(localDate(org.timezone, new Date(j.requested_at)));
    if (i !== undefined) s.by_day[i]![j.type === 'import' ? 'imports' : 'exports'] += 1;
  }
  const ended = s.completed + s.failed;
  s.success_rate = ended ? Math.round((s.completed / ended) * 1000) / 10 : null;
  s.avg_seconds = timed ? Math.round((seconds / timed) * 10) / 10 : null;
  s.by_entity = [...byEntity.values()].sort((a, b) => b.jobs - a.jobs);
  s.by_format = [...byFormat.entries()].map(([format, jobs]) => ({ format, jobs })).sort((a, b) => b.jobs - a.jobs);
  if (q.type !== 'export') {
    const columns = new Map<string, number>();
    for (const report of await recentErrorReports(db, scope, 50)) {
      try {
        for (const e of JSON.parse(report) as { column: string | null }[]) {
          const c = e.column ?? '(whole row)';
          columns.set(c, (columns.get(c) ?? 0) + 1);
        }
      } catch {
        // A report that is not JSON is left out of the figures.
      }
    }
    s.error_columns = [...columns.entries()]
      .map(([column, errors]) => ({ column, errors }))
      .sort((a, b) => b.errors - a.errors)
      .slice(0, 8);
  }
  return s;
}

export async function cancelJob(db: Db, r: Requester, id: number): Promise<DataJob> {
  const row = await visibleJob(db, r, id);
  requireMove(r, row.entity, row.type);
  if (row.status !== 'in_progress' && row.status !== 'pending')
    throw new ConflictError(`This job is ${row.status.replace('_', ' ')}; only a running job can be cancelled`);
  const live = running.get(id);
  if (!live || live.organizationId !== r.actor.organizationId)
    throw new ConflictError(
      'This job is run by another process (lims import or lims export on the command line); stop it there',
    );
  live.controller.abort();
  await live.done.catch(() => undefined);
  return jobById(db, r, id);
}

/** The file of a completed export, counted as a download; 410 once the retention days removed it. */
export async function exportDownload(
  db: Db,
  r: Requester,
  id: number,
): Promise<{ stream: ReadStream; fileName: string; format: DataJob['format'] }> {
  const row = await visibleJob(db, r, id);
  if (row.type !== 'export') throw new NotFoundError('Export', id);
  requireMove(r, row.entity, 'export');
  if (row.status !== 'completed') throw new ConflictError(`This export is ${row.status.replace('_', ' ')}`);
  if (!row.output_file || !existsSync(row.output_file)) {
    if (row.origin === 'cli')
      throw new DomainError(410, 'GONE', 'This export was written by the command line to a file of its own');
    throw new DomainError(
      410,
      'GONE',
      'The file of this export is no longer kept (exports are kept for the backup retention days); export again',
    );
  }
  const stream = createReadStream(row.output_file);
  await countDownload(db, r.actor.organizationId, id);
  await writeAudit(db, r.actor, {
    action: 'export',
    entity: 'data_job',
    entityId: id,
    newValues: { download: true, entity: row.entity, format: row.format, records: row.records },
  });
  return { stream, fileName: row.file_name ?? `export-${id}.${row.format}`, format: row.format };
}

export async function jobErrors(db: Db, r: Requester, id: number) {
  const row = await visibleJob(db, r, id);
  if (row.type !== 'import') throw new NotFoundError('Import', id);
  requireMove(r, row.entity, 'import');
  let errors: { row: number; column: string | null; message: string }[] = [];
  try {
    errors = row.error_report ? (JSON.parse(row.error_report) as typeof errors) : [];
  } catch {
    errors = [];
  }
  let groups: ErrorGroup[] = [];
  try {
    groups = row.error_groups ? (JSON.parse(row.error_groups) as ErrorGroup[]) : [];
  } catch {
    groups = [];
  }
  return {
    job_id: id,
    message: row.error_message,
    total: row.errors,
    unit: row.format === 'json' ? ('record' as const) : ('row' as const),
    errors,
    groups,
    has_report: row.error_file !== null && existsSync(row.error_file),
  };
}

export async function jobErrorReport(db: Db, r: Requester, id: number): Promise<{ stream: ReadStream; name: string }> {
  const row = await visibleJob(db, r, id);
  if (row.type !== 'import') throw new NotFoundError('Import', id);
  requireMove(r, row.entity, 'import');
  if (!row.error_file || !existsSync(row.error_file)) throw new NotFoundError('Error report of job', id);
  return { stream: createReadStream(row.error_file), name: `import-${id}-${row.entity}-errors` };
}

// ---------------------------------------------------------------- expired export files

/**
 * Removes the files of exports older than their lab's backup retention days (the job stays in the
 * history, no longer downloadable). Run before each export and hourly by the server.
 */
export async function sweepExports(db: Db, dataDir: string): Promise<number> {
  const rows = await keptExportRows(db);
  const retention = new Map<number, number>();
  let removed = 0;
  for (const row of rows) {
    let days = retention.get(row.organization_id);
    if (days === undefined) {
      days = settingsOf(await getOrganization(db, row.organization_id)).backupRetention;
      retention.set(row.organization_id, days);
    }
    const gone = !existsSync(row.output_file!);
    const old = row.completed_at !== null && Date.parse(row.completed_at) + days * 86_400_000 < Date.now();
    if (!gone && !old) continue;
    // Only files of the data dir's exports folder are ever removed.
    if (!gone && row.output_file!.startsWith(dataDirs(dataDir).exports)) rmSync(row.output_file!, { force: true });
    await forgetOutputFile(db, row.id);
    removed += 1;
  }
  return removed;
}
