import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, rmSync, writeFileSync, type ReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import type { Database_, Db } from '../db/connection.js';
import { heavyBackground, heavyWait } from '../heavy/run.js';
import { runOnThread } from '../heavy/pool.js';
import type { HeavyEvent, HeavyTask } from '../heavy/tasks.js';
import { failInterruptedJobs, type NewJob } from '../transfer/jobs.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { getOrganization, settingsOf } from '../settings/organization.js';
import {
  checkFilters,
  entityNamed,
  finishJob,
  queueJob,
  fileHeaders,
  FileRefusedError,
  formatOfName,
  getJob,
  normalizeHeader,
  safeFileName,
  type AnyEntity,
  type ColumnMapping,
  type DataJobRow,
  type ImportResult,
} from '../transfer/index.js';
import type { ErrorGroup } from '../transfer/errors.js';
import {
  countDownload,
  deleteMapping,
  forgetOutputFile,
  insertMapping,
  jobPage,
  keptExportRows,
  mappingByName,
  mappingRow,
  mappingRows,
  recentErrorReports,
  summaryRows,
  updateMapping,
  userNames,
  type DataMappingRow,
} from './repository.js';
import {
  noteCheckReport,
  readUpload,
  receiveUpload,
  removeUpload,
  sweepUploads,
  uploadPaths,
  uploadsRoot,
  type UploadLimits,
  type UploadMeta,
} from './uploads.js';
import { addDays, localDate } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  DATA_ENTITIES,
  DATA_ENTITY_LABELS,
  mayMove,
  type DataEntity,
  type DataJob,
  type DataJobListQuery,
  type DataJobPage,
  type DataJobSummary,
  type DataMapping,
  type DataMappingInput,
  type ExportStartBody,
  type ImportCheck,
  type ImportStartBody,
  type TransferEntityInfo,
  type Upload,
} from '../../shared/schemas/data-jobs.js';
import type { Permission } from '../../shared/roles.js';

/**
 * The data screens (issue 14 part 2): the jobs of `data_jobs` as the screens show them, uploads
 * kept for the import, imports and exports run in the background on a connection of their own
 * (an import's one transaction holds that connection while it runs), progress kept in memory and
 * read live, Cancel, export files kept for the lab's backup retention days, error reports, saved
 * column mappings. What a user may do is decided per entity (DATA_ENTITY_PERMISSIONS).
 */

/** Who is asking: the actor and their permissions in their lab. */
export interface Requester {
  actor: Actor;
  permissions: readonly Permission[];
}

export function dataDirs(dataDir: string) {
  return {
    uploads: uploadsRoot(dataDir),
    exports: join(dataDir, 'exports'),
    reports: join(dataDir, 'import-reports'),
  };
}

function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  return path;
}

// ---------------------------------------------------------------- permissions

function entityOf(name: string): AnyEntity {
  const e = entityNamed(name);
  if (!e) throw ValidationError.field('entity', `Entity must be one of ${DATA_ENTITIES.join(', ')}`);
  return e;
}

function requireMove(r: Requester, entity: string, type: 'import' | 'export'): void {
  if (!mayMove(r.permissions, entity as DataEntity, type)) {
    const label = DATA_ENTITY_LABELS[entity as DataEntity] ?? entity;
    throw new ForbiddenError(
      type === 'import'
        ? `You do not have permission to import ${label.toLowerCase()}`
        : `You do not have permission to export ${label.toLowerCase()}`,
    );
  }
}

/** The entities whose jobs the user sees: those they may import or export. */
function visibleEntities(r: Requester, within?: readonly string[]): string[] {
  return DATA_ENTITIES.filter(
    (e) =>
      (!within || within.includes(e)) && (mayMove(r.permissions, e, 'import') || mayMove(r.permissions, e, 'export')),
  );
}

// ---------------------------------------------------------------- running jobs

interface Running {
  organizationId: number;
  controller: AbortController;
  processed: number;
  errors: number;
  percent: number | null;
  /** Waiting for the lab's turn of heavy work (shown as queued). */
  queued: boolean;
  done: Promise<unknown>;
}

/** Jobs this server runs now, by id: their live progress and their Cancel. */
const running = new Map<number, Running>();

/** Waits for this server's running jobs, cancelling them first when asked (the server is stopping). */
export async function stopJobs(cancel: boolean): Promise<void> {
  const all = [...running.values()];
  if (cancel) for (const j of all) j.controller.abort();
  await Promise.allSettled(all.map((j) => j.done));
}

// ---------------------------------------------------------------- jobs as the API shows them

interface LabFacts {
  retentionDays: number;
}

async function labFacts(db: Db, organizationId: number): Promise<LabFacts> {
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
async function visibleJob(db: Db, r: Requester, id: number): Promise<DataJobRow> {
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

export function entityInfos(r: Requester): TransferEntityInfo[] {
  return DATA_ENTITIES.map((name) => {
    const e = entityOf(name);
    return {
      name,
      label: DATA_ENTITY_LABELS[name],
      key: e.key,
      columns: e.columns.map((c) => ({
        name: c.name,
        read_only: c.readOnly === true,
        required: e.requiredColumns.includes(c.name),
      })),
      can_import: mayMove(r.permissions, name, 'import'),
      can_export: mayMove(r.permissions, name, 'export'),
      can_update: e.updateSchema !== undefined,
      date_field: e.dateField ?? null,
      filters: Object.keys(e.filters),
    };
  });
}

// ---------------------------------------------------------------- uploads

/**
 * Stores an uploaded file (streamed to disk within the server's limits, src/core/data-jobs/uploads.ts)
 * for its import and answers its headers with the columns lims reads them as. A file whose
 * headers cannot be read at all is removed at once: no mapping or second check can use it.
 */
export async function saveUpload(
  dataDir: string,
  r: Requester,
  q: { entity: string; file_name: string },
  body: Readable,
  limits: UploadLimits,
  declaredBytes?: number,
): Promise<{ upload: Upload; file: string; meta: UploadMeta; readable: boolean }> {
  const entity = entityOf(q.entity);
  requireMove(r, entity.name, 'import');
  sweepUploads(dataDir);
  const id = randomBytes(16).toString('hex');
  const p = uploadPaths(dataDir, r.actor.organizationId, id);
  ensureDir(p.dir);
  const size = await receiveUpload(dataDir, r.actor.organizationId, id, body, limits, declaredBytes);
  if (size === 0) {
    removeUpload(dataDir, r.actor.organizationId, id);
    throw ValidationError.field('file', 'The file is empty');
  }
  const fileName = safeFileName(q.file_name);
  const meta: UploadMeta = {
    organization_id: r.actor.organizationId,
    user_id: r.actor.userId,
    entity: entity.name,
    file_name: fileName,
    format: formatOfName(fileName),
    size,
    created_at: nowIso(),
  };
  writeFileSync(p.meta, JSON.stringify(meta), { mode: 0o600 });
  let headers: Upload['headers'] = [];
  let readable = meta.format !== null;
  if (meta.format) {
    try {
      const names = new Set(entity.columns.map((c) => c.name));
      headers = (await fileHeaders(p.file, meta.format)).map((header) => {
        const n = normalizeHeader(header);
        return { header, column: names.has(n) ? n : null };
      });
    } catch (err) {
      // The check that follows says why the file cannot be read.
      if (!(err instanceof FileRefusedError)) throw err;
      readable = false;
    }
  }
  return {
    upload: { id, entity: entity.name as DataEntity, file_name: fileName, format: meta.format, size, headers },
    file: p.file,
    meta,
    readable,
  };
}

/** Removes an upload of the user's own at once (the dialog closed, or another file chosen). */
export function discardUpload(dataDir: string, r: Requester, id: string): { removed: boolean } {
  try {
    readUpload(dataDir, r.actor, id);
  } catch (err) {
    if (err instanceof ValidationError) return { removed: false };
    throw err;
  }
  removeUpload(dataDir, r.actor.organizationId, id);
  return { removed: true };
}

function checkMapping(entity: AnyEntity, mapping: ColumnMapping | undefined): ColumnMapping | undefined {
  if (!mapping) return undefined;
  const names = new Set(entity.columns.map((c) => c.name));
  for (const [k, v] of Object.entries(mapping)) {
    if (v !== null && v !== '' && !names.has(v))
      throw ValidationError.field(`mapping.${k}`, `${v} is not a column of ${entity.name}`);
  }
  const cleaned = Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, v || null]));
  return Object.keys(cleaned).length ? cleaned : undefined;
}

function checkOf(result: ImportResult): ImportCheck {
  return {
    job_id: result.job_id,
    status: result.status,
    rows: result.rows,
    inserted: result.inserted,
    updated: result.updated,
    errors: result.errors,
    unit: result.unit,
    first_errors: result.first_errors,
    error_groups: result.error_groups,
    message: result.message,
    ignored_columns: result.ignored_columns,
  };
}

function updateAllowed(entity: AnyEntity, update: boolean | undefined): boolean {
  if (update && !entity.updateSchema)
    throw ValidationError.field('update', `${entity.name} cannot be updated by an import: ${entity.noUpdate ?? ''}`);
  return update ?? false;
}

const reportDir = (dataDir: string) => ensureDir(dataDirs(dataDir).reports);

/**
 * A dry run of an uploaded file: every row checked, nothing stored; a job of its own ("Check import
 * of ..."). Read and checked on a thread in the lab's turn of heavy work; the request waits for it.
 */
export async function checkUpload(
  database: Database_,
  dataDir: string,
  r: Requester,
  body: { upload_id: string; entity: string; mapping?: ColumnMapping; update?: boolean },
): Promise<ImportCheck> {
  const entity = entityOf(body.entity);
  requireMove(r, entity.name, 'import');
  const { meta, file } = readUpload(dataDir, r.actor, body.upload_id);
  if (meta.entity !== entity.name)
    throw ValidationError.field('entity', `the file was uploaded for ${meta.entity}, not ${entity.name}`);
  const run = await heavyWait(database, {
    kind: 'import',
    actor: r.actor,
    entity: entity.name,
    path: file,
    fileName: meta.file_name,
    mapping: checkMapping(entity, body.mapping),
    dryRun: true,
    update: updateAllowed(entity, body.update),
    reportDir: reportDir(dataDir),
  });
  if (run.answer.kind !== 'import') throw new Error(`a check answered ${run.answer.kind}`);
  noteCheckReport(dataDir, r.actor.organizationId, body.upload_id, run.answer.result.error_file);
  return checkOf(run.answer.result);
}

/**
 * The Upload step of the data screens: the file stored and checked at once. A file that cannot be
 * read at all (no headers: not CSV, XLSX or JSON, not UTF-8, a refused workbook) is removed as soon
 * as its check says why; one with row errors is kept for a check with another mapping.
 */
export async function uploadAndCheck(
  database: Database_,
  dataDir: string,
  r: Requester,
  q: { entity: string; file_name: string; update?: string },
  body: Readable,
  limits: UploadLimits,
  declaredBytes?: number,
): Promise<{ upload: Upload; check: ImportCheck }> {
  const saved = await saveUpload(dataDir, r, q, body, limits, declaredBytes);
  try {
    const check = await checkUpload(database, dataDir, r, {
      upload_id: saved.upload.id,
      entity: saved.upload.entity,
      update: q.update === '1',
    });
    if (!saved.readable) removeUpload(dataDir, r.actor.organizationId, saved.upload.id);
    return { upload: saved.upload, check };
  } catch (err) {
    removeUpload(dataDir, r.actor.organizationId, saved.upload.id);
    throw err;
  }
}

/**
 * Records a data job as queued, takes the lab's turn of heavy work for it, and runs `task` on a
 * thread when the turn comes; answers the job at once, queued or starting. Cancel works in both
 * states: a queued job ends cancelled without starting, a running one stops at its next row or page.
 */
async function startHeavyJob(
  database: Database_,
  r: Requester,
  job: NewJob,
  task: (jobId: number) => HeavyTask,
  progress: (state: Running, e: HeavyEvent) => void,
  /** When the job has ended, however it ended (its row says how). */
  after: (jobId: number) => Promise<void> | void,
): Promise<DataJob> {
  const jobId = await queueJob(database.db, r.actor, job);
  const controller = new AbortController();
  const state: Running = {
    organizationId: r.actor.organizationId,
    controller,
    processed: 0,
    errors: 0,
    percent: job.type === 'import' ? 0 : null,
    queued: true,
    done: Promise.resolve(),
  };
  running.set(jobId, state);
  let started: { queued: boolean; done: Promise<void> };
  try {
    started = heavyBackground(r.actor.organizationId, controller.signal, async () => {
      state.queued = false;
      await runOnThread(database, task(jobId), { signal: controller.signal, onEvent: (e) => progress(state, e) });
    });
  } catch (err) {
    running.delete(jobId);
    await finishJob(database.db, jobId, {
      status: 'failed',
      records: 0,
      processed: 0,
      errorMessage: (err as Error).message,
    });
    throw err;
  }
  state.queued = started.queued;
  state.done = started.done.then(
    async () => {
      running.delete(jobId);
      await after(jobId);
    },
    async (err: unknown) => {
      running.delete(jobId);
      await after(jobId);
      // A job that never started (cancelled while queued, or its thread failed to start) ends here;
      // one that ran has recorded its own end.
      const row = await getJob(database.db, r.actor.organizationId, jobId);
      if (row && (row.status === 'pending' || row.status === 'in_progress')) {
        const cancelled = controller.signal.aborted;
        await finishJob(database.db, jobId, {
          status: cancelled ? 'cancelled' : 'failed',
          records: row.processed,
          processed: row.processed,
          errorMessage: cancelled ? 'cancelled before it started' : (err as Error).message,
        });
      }
    },
  );
  // The failure of a background job is on its job row; nothing waits for it here.
  state.done.catch(() => undefined);
  return jobById(database.db, r, jobId);
}

/**
 * Starts the import of an uploaded file in the background and answers its job as soon as it is
 * recorded (queued while the lab has its limit of heavy jobs running). The import runs on a thread
 * with a connection of its own (its one transaction holds it), reports progress to memory, and
 * stops at the next row on Cancel. The upload is removed when it is done.
 */
export async function startImport(
  database: Database_,
  dataDir: string,
  r: Requester,
  body: ImportStartBody,
): Promise<DataJob> {
  const entity = entityOf(body.entity);
  requireMove(r, entity.name, 'import');
  const { meta, file } = readUpload(dataDir, r.actor, body.upload_id);
  if (meta.entity !== entity.name)
    throw ValidationError.field('entity', `the file was uploaded for ${meta.entity}, not ${entity.name}`);
  const mapping = checkMapping(entity, body.mapping);
  const update = updateAllowed(entity, body.update);
  await failInterruptedJobs(database.db);
  return startHeavyJob(
    database,
    r,
    {
      type: 'import',
      entity: entity.name,
      format: meta.format ?? 'csv',
      origin: 'web',
      fileName: meta.file_name,
      fileSize: null,
      options: { update, mapping: mapping ?? null },
    },
    (jobId) => ({
      kind: 'import',
      actor: r.actor,
      entity: entity.name,
      path: file,
      fileName: meta.file_name,
      mapping,
      dryRun: false,
      update,
      reportDir: reportDir(dataDir),
      jobId,
      // Imported, refused or cancelled, the upload is removed before the job shows how it ended: the
      // dialog starts again from a new upload.
      removeWhenDone: [file, uploadPaths(dataDir, r.actor.organizationId, body.upload_id).meta],
    }),
    (state, e) => {
      if (e.type !== 'progress' || !e.import) return;
      const p = e.import;
      state.processed = p.processed;
      state.errors = p.errors;
      state.percent = p.fileSize ? Math.min(100, Math.round((p.bytes / p.fileSize) * 1000) / 10) : null;
    },
    // Imported, refused or cancelled: the dialog starts again from a new upload, so none is kept.
    () => removeUpload(dataDir, r.actor.organizationId, body.upload_id),
  );
}

/**
 * Starts an export in the background (queued while the lab has its limit of heavy jobs running):
 * the file is written on a thread under the data dir as `exports/<lab>/export-<job>-<entity>.<ext>`
 * (beside as .partial until complete) and kept for the lab's backup retention days, downloadable
 * again meanwhile.
 */
export async function startExport(
  database: Database_,
  dataDir: string,
  r: Requester,
  body: ExportStartBody,
): Promise<DataJob> {
  const entity = entityOf(body.entity);
  requireMove(r, entity.name, 'export');
  if (body.format === 'pdf' && entity.name !== 'bills')
    throw ValidationError.field('format', 'PDF is offered for billing data only; choose csv, xlsx or json');
  if (body.from && body.to && body.from > body.to) throw ValidationError.field('from', 'From is after To');
  if ((body.from || body.to) && !entity.dateField)
    throw ValidationError.field('from', `${entity.name} have no date to choose them by; leave out From and To`);
  const where = checkFilters(entity, body.where ?? {});
  await sweepExports(database.db, dataDir);
  await failInterruptedJobs(database.db);
  const org = await getOrganization(database.db, r.actor.organizationId);
  const dir = ensureDir(join(dataDirs(dataDir).exports, String(r.actor.organizationId)));
  const partial = join(dir, `${randomBytes(8).toString('hex')}.partial`);
  const fileName = `${entity.name}-${localDate(org.timezone)}.${body.format}`;
  return startHeavyJob(
    database,
    r,
    {
      type: 'export',
      entity: entity.name,
      format: body.format,
      origin: 'web',
      fileName,
      fileSize: null,
      options: { from: body.from ?? null, to: body.to ?? null, where },
    },
    (jobId) => ({
      kind: 'export',
      actor: r.actor,
      entity: entity.name,
      format: body.format,
      from: body.from,
      to: body.to,
      where,
      partial,
      dir,
      fileName,
      jobId,
    }),
    (state, e) => {
      if (e.type === 'progress' && e.rows !== undefined) state.processed = e.rows;
    },
    () => rmSync(partial, { force: true }),
  );
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

// ---------------------------------------------------------------- saved mappings

async function mappingsToApi(db: Db, organizationId: number, rows: DataMappingRow[]): Promise<DataMapping[]> {
  const names = await userNames(db, organizationId, [
    ...new Set(rows.map((m) => m.created_by).filter((x): x is number => x !== null)),
  ]);
  return rows.map((m) => ({
    id: m.id,
    entity: m.entity as DataEntity,
    name: m.name,
    mapping: JSON.parse(m.mapping) as Record<string, string | null>,
    created_by: m.created_by === null ? null : (names.get(m.created_by) ?? null),
    updated_at: m.updated_at,
  }));
}

export async function listMappings(db: Db, r: Requester, entity?: string): Promise<DataMapping[]> {
  const rows = await mappingRows(db, r.actor.organizationId, entity);
  const seen = visibleEntities(r);
  return mappingsToApi(
    db,
    r.actor.organizationId,
    rows.filter((m) => seen.includes(m.entity)),
  );
}

export async function saveMapping(db: Db, r: Requester, input: DataMappingInput): Promise<DataMapping> {
  const entity = entityOf(input.entity);
  requireMove(r, entity.name, 'import');
  const mapping = checkMapping(entity, input.mapping) ?? {};
  const text = JSON.stringify(mapping);
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const before = await mappingByName(trx, r.actor.organizationId, entity.name, input.name);
    let mid: number;
    if (before) {
      await updateMapping(trx, before.id, text, now);
      mid = before.id;
    } else {
      mid = await insertMapping(trx, {
        organization_id: r.actor.organizationId,
        entity: entity.name,
        name: input.name,
        mapping: text,
        created_by: r.actor.userId,
        created_at: now,
        updated_at: now,
      });
    }
    await writeAudit(trx, r.actor, {
      action: before ? 'update' : 'create',
      entity: 'data_mapping',
      entityId: mid,
      oldValues: before ? { name: before.name, entity: before.entity, mapping: JSON.parse(before.mapping) } : undefined,
      newValues: { name: input.name, entity: entity.name, mapping },
    });
    return mid;
  });
  const row = await mappingRow(db, r.actor.organizationId, id);
  return (await mappingsToApi(db, r.actor.organizationId, [row!]))[0]!;
}

export async function removeMapping(db: Db, r: Requester, id: number): Promise<DataMapping> {
  const row = await mappingRow(db, r.actor.organizationId, id);
  if (!row || !visibleEntities(r).includes(row.entity)) throw new NotFoundError('Mapping', id);
  requireMove(r, row.entity, 'import');
  const [api] = await mappingsToApi(db, r.actor.organizationId, [row]);
  await db.transaction().execute(async (trx) => {
    await deleteMapping(trx, id);
    await writeAudit(trx, r.actor, {
      action: 'delete',
      entity: 'data_mapping',
      entityId: id,
      oldValues: { name: row.name, entity: row.entity, mapping: JSON.parse(row.mapping) },
    });
  });
  return api!;
}
