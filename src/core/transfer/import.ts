import type { z } from 'zod';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { getOrganization } from '../settings/organization.js';
import { localDate } from '../../shared/time.js';
import { formatCount } from '../../shared/count.js';
import { DomainError, ValidationError } from '../errors.js';
import { withSavepoint } from '../db/savepoint.js';
import { readCell, type CellContext, type ColumnKind } from './cells.js';
import { FileRefusedError, quoted, type ErrorGroup, type RowError } from './errors.js';
import { ErrorReport } from './report.js';
import { KeyRows } from './key-rows.js';
import { beginJob, finishJob, failInterruptedJobs, startJob } from './jobs.js';
import {
  formatOf,
  openSource,
  safeFileName,
  type ColumnMapping,
  type OpenedSource,
  type SourceRecord,
} from './source.js';
import type { TransferFormat } from './limits.js';
import { DEFERRED, type AnyEntity, type ImportContext, type ValidRow, type WriteCounts } from './entity.js';
import { statisticsAsWritten } from '../db/bulk-statistics.js';

/**
 * `lims import` (issue 14): every row of a file is read, converted, checked with the API's schema,
 * looked up (duplicates, references by natural key) in batches; while no row has failed, each
 * batch is written at once inside ONE transaction that spans the whole file. One bad row anywhere
 * and the transaction is rolled back: nothing is stored (a kill -9 mid-way leaves nothing either,
 * as the transaction never commits). Reading on after the first error finds every other error for
 * the report. A dry run does the same reading and checking without a transaction and writes nothing.
 */

export interface ImportOptions {
  entity: AnyEntity;
  /** The file to read. */
  path: string;
  /** Its name as the person knows it (an upload's name); the path's last part unless given. */
  fileName?: string;
  format?: TransferFormat;
  mapping?: ColumnMapping;
  dryRun: boolean;
  update: boolean;
  origin: 'cli' | 'web';
  /** Where the full error report of job `id` is written (a CSV), or null for none. */
  reportPath: (jobId: number) => string | null;
  onProgress?: (p: ImportProgress) => void;
  /** Called with the job's id once it is recorded (the server answers the request then and runs on). */
  onJob?: (jobId: number) => void;
  /** Cancel (the screens' Cancel button): the import stops at the next row and stores nothing. */
  signal?: AbortSignal;
  /** A job already recorded as queued (jobs.ts queueJob): this import is it, started now. */
  jobId?: number;
  /** Called when a real import has ended in any way, before its job shows how (the upload is removed). */
  onEnded?: () => void;
}

export interface ImportProgress {
  processed: number;
  errors: number;
  bytes: number;
  fileSize: number;
}

export interface ImportResult {
  job_id: number;
  status: 'completed' | 'failed' | 'cancelled';
  entity: string;
  format: TransferFormat | null;
  file_name: string;
  dry_run: boolean;
  update: boolean;
  /** Data rows read (blank rows left out). */
  rows: number;
  inserted: number;
  updated: number;
  errors: number;
  /** "row" (CSV, XLSX) or "record" (JSON): how error rows are numbered. */
  unit: 'row' | 'record';
  /** The first row errors (LIMITS.keptErrors at most). */
  first_errors: RowError[];
  /** Every row error counted by kind, the most frequent first (the summary of the report). */
  error_groups: ErrorGroup[];
  error_file: string | null;
  /** Why the file as a whole was refused (then rows and errors are what was read before). */
  message: string | null;
  /** Columns of the file that were left out (mapped to null, read-only, or unknown JSON fields). */
  ignored_columns: string[];
}

class Rollback extends Error {}

/** Thrown inside the pass when the import is cancelled: its transaction is rolled back. */
class Cancelled extends Error {}

const DEFAULT_BATCH = 500;

/** Zod's problems of a row, by column; a nested path (items.0.qty) names the column and the place in it. */
function schemaErrors(row: number, error: z.ZodError, values: Record<string, unknown>): RowError[] {
  return error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    const column = head === undefined ? null : String(head);
    const where = rest.length
      ? `${rest.map((p) => (typeof p === 'number' ? `#${p + 1}` : String(p))).join(' ')}: `
      : '';
    const raw = column ? values[column] : undefined;
    const got =
      !rest.length && raw !== undefined && raw !== null && raw !== '' && typeof raw !== 'object'
        ? ` (got "${quoted(raw)}")`
        : '';
    return { row, column, message: `${where}${issue.message}${got}` };
  });
}

interface Pending {
  rec: SourceRecord;
  values: Record<string, unknown>;
  /** Columns whose cell is empty: left out of a new record (its default), cleared on an update. */
  blanks: string[];
  key: string | null;
  errors: RowError[];
}

const isBlank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

export async function runImport(database: Db, actor: Actor, opts: ImportOptions): Promise<ImportResult> {
  const { entity } = opts;
  if (opts.update && !entity.updateSchema)
    throw ValidationError.field(
      'update',
      `${entity.name} cannot be updated by an import: ${entity.noUpdate ?? 'not offered'}`,
    );
  const fileName = safeFileName(opts.fileName ?? opts.path);
  await failInterruptedJobs(database);
  let format: TransferFormat | null = null;
  const result: ImportResult = {
    job_id: 0,
    status: 'failed',
    entity: entity.name,
    format: null,
    file_name: fileName,
    dry_run: opts.dryRun,
    update: opts.update,
    rows: 0,
    inserted: 0,
    updated: 0,
    errors: 0,
    unit: 'row',
    first_errors: [],
    error_groups: [],
    error_file: null,
    message: null,
    ignored_columns: [],
  };
  try {
    format = formatOf(opts.fileName ?? opts.path, opts.format);
  } catch (err) {
    if (!(err instanceof FileRefusedError)) throw err;
    result.message = err.message;
  }
  result.format = format;
  if (opts.jobId !== undefined) await beginJob(database, opts.jobId);
  const jobId =
    opts.jobId ??
    (await startJob(database, actor, {
      type: 'import',
      entity: entity.name,
      format: format ?? 'csv',
      origin: opts.origin,
      dryRun: opts.dryRun,
      fileName,
      fileSize: null,
      options: { update: opts.update, mapping: opts.mapping ?? null },
    }));
  result.job_id = jobId;
  opts.onJob?.(jobId);
  const report = new ErrorReport(opts.reportPath(jobId));
  let fileSize: number | null = null;
  let fileLevel: string | null = result.message;
  let cancelled = false;
  if (!fileLevel && format) {
    try {
      const source = await openSource(opts.path, format, entity, opts.mapping, opts.update, opts.origin);
      fileSize = source.fileSize;
      result.unit = source.unit;
      report.unit = source.unit;
      const pass = async (db: Db) => {
        try {
          await importRows(db, actor, opts, source, report, result);
        } finally {
          result.ignored_columns = [...source.ignored];
        }
      };
      if (opts.dryRun) await pass(database);
      else {
        await database.transaction().execute(async (trx) => {
          await pass(trx);
          if (report.count > 0) throw new Rollback();
          await writeAudit(trx, actor, {
            action: 'import',
            entity: entity.auditEntity,
            newValues: {
              job: jobId,
              file: fileName,
              format,
              rows: result.rows,
              inserted: result.inserted,
              updated: result.updated,
              update: opts.update,
            },
          });
        });
      }
    } catch (err) {
      if (err instanceof FileRefusedError) fileLevel = err.message;
      else if (err instanceof Cancelled) cancelled = true;
      else if (!(err instanceof Rollback)) {
        await report.close();
        if (!opts.dryRun) opts.onEnded?.();
        await finishJob(database, jobId, {
          status: 'failed',
          records: result.rows,
          processed: result.rows,
          errors: report.count,
          errorMessage: (err as Error).message,
          firstErrors: report.kept,
          fileSize,
        });
        throw err;
      }
    }
  }
  if (cancelled) fileLevel = 'cancelled before it finished; nothing of it was stored';
  const failed = fileLevel !== null || report.count > 0;
  if (failed) {
    // Nothing was stored: the counts say what would have been.
    result.inserted = 0;
    result.updated = 0;
  }
  result.status = cancelled ? 'cancelled' : failed ? 'failed' : 'completed';
  result.message = fileLevel;
  result.errors = report.count;
  result.first_errors = report.kept;
  result.error_groups = report.groups();
  result.error_file = await report.close();
  if (failed && !opts.dryRun) {
    await writeAudit(database, actor, {
      action: 'import',
      entity: entity.auditEntity,
      status: 'failed',
      newValues: {
        job: jobId,
        file: fileName,
        format,
        rows: result.rows,
        errors: report.count,
        refused: fileLevel,
        ...(cancelled && { cancelled: true }),
      },
    });
  }
  if (!opts.dryRun) opts.onEnded?.();
  await finishJob(database, jobId, {
    status: result.status,
    records: result.rows,
    processed: result.rows,
    inserted: result.inserted,
    updated: result.updated,
    errors: report.count,
    errorMessage: fileLevel,
    firstErrors: report.kept,
    errorGroups: result.error_groups,
    errorFile: result.error_file,
    fileSize,
  });
  return result;
}

/** One pass over the file: convert, check, look up, and (while clean, not a dry run) write, batch by batch. */
async function importRows(
  db: Db,
  actor: Actor,
  opts: ImportOptions,
  source: OpenedSource,
  report: ErrorReport,
  result: ImportResult,
): Promise<void> {
  const { entity } = opts;
  const org = await getOrganization(db, actor.organizationId);
  // Each key of the file and the first row it is on: duplicates are refused by it, and entities ask
  // it whether a code they reference comes with the same file (outside the heap: key-rows.ts).
  const firstRowOfKey = new KeyRows();
  const ctx: ImportContext = {
    db,
    actor,
    organizationId: actor.organizationId,
    timeZone: org.timezone,
    today: localDate(org.timezone),
    dateFormat: org.date_format,
    update: opts.update,
    dryRun: opts.dryRun,
    keysInFile: { has: (key) => firstRowOfKey.has(key) },
    deferred: [],
    async attempt<T>(row: number, fn: () => Promise<T>): Promise<T | undefined> {
      try {
        return opts.dryRun ? await fn() : await withSavepoint(db, fn);
      } catch (err) {
        if (!(err instanceof DomainError) || err.statusCode >= 500) throw err;
        const detail = err.details?.[0];
        const column = detail ? detail.path.split('.')[0]! : null;
        await report.add({ row, column, message: detail ? detail.message : err.message });
        return undefined;
      }
    },
  };
  const cellCtx: CellContext = {
    dateFormat: org.date_format,
    timeZone: org.timezone,
    fromXlsx: source.format === 'xlsx',
  };
  const kinds = new Map<string, ColumnKind>(entity.columns.map((c) => [c.name, c.kind ?? 'text']));
  const batchSize = entity.batchSize ?? DEFAULT_BATCH;
  const statistics = statisticsAsWritten(db);
  let batch: Pending[] = [];
  let lastProgress = 0;

  const flush = async () => {
    if (!batch.length) return;
    const rows = batch;
    batch = [];
    const keys = [...new Set(rows.map((r) => r.key).filter((k): k is string => k !== null))];
    const existing = keys.length ? await entity.findExisting(ctx, keys) : new Map<string, unknown>();
    const valid: ValidRow<unknown, unknown>[] = [];
    // The batch's errors, reported in row order once all of its checks are done.
    const errors: RowError[] = [];
    for (const p of rows) {
      const found = p.key !== null ? existing.get(p.key) : undefined;
      if (p.errors.length) {
        errors.push(...p.errors);
        // The rest of the row is checked too, so one pass names every problem of every row (a
        // record that could not be read at all has nothing more to check).
        if (!p.rec.values) continue;
        const named = new Set(p.errors.map((e) => e.column));
        const parsed = (found !== undefined && opts.update ? entity.updateSchema! : entity.createSchema).safeParse(
          p.values,
        );
        if (!parsed.success)
          errors.push(...schemaErrors(p.rec.row, parsed.error, p.values).filter((e) => !named.has(e.column)));
        continue;
      }
      if (found !== undefined && !opts.update) {
        errors.push({
          row: p.rec.row,
          column: entity.key,
          message: `${quoted(entity.keyOf ? p.key : p.values[entity.key])}: a ${entity.label} with this ${entity.keyOf ? 'key' : entity.key} is already stored${entity.updateSchema ? ' (import with --update to change it)' : ''}`,
        });
        continue;
      }
      const schema = found !== undefined ? entity.updateSchema! : entity.createSchema;
      if (found !== undefined) for (const b of p.blanks) p.values[b] = null;
      const parsed = schema.safeParse(p.values);
      if (!parsed.success) {
        errors.push(...schemaErrors(p.rec.row, parsed.error, p.values));
        continue;
      }
      let input = parsed.data as Record<string, unknown>;
      // An update changes the columns the file has, nothing else (no schema default creeps in).
      if (found !== undefined)
        input = Object.fromEntries(Object.entries(input).filter(([k]) => Object.hasOwn(p.values, k)));
      valid.push({ row: p.rec.row, input, existing: found });
    }
    const planned = valid.length ? await entity.plan(ctx, valid) : [];
    const plans: unknown[] = [];
    const dry: WriteCounts = { inserted: 0, updated: 0 };
    for (const [i, r] of planned.entries()) {
      if ('errors' in r) {
        for (const e of r.errors) errors.push({ row: r.row, ...e });
        continue;
      }
      if (r.plan === DEFERRED) continue;
      plans.push(r.plan);
      if (valid[i]!.existing === undefined) dry.inserted += 1;
      else dry.updated += 1;
    }
    errors.sort((a, b) => a.row - b.row);
    for (const e of errors) await report.add(e);
    if (report.count === 0 && !opts.dryRun && plans.length) {
      add(await entity.write(ctx, plans));
      await statistics(result.inserted + result.updated);
    } else if (report.count === 0 && opts.dryRun) add(dry);
  };
  const add = (c: WriteCounts) => {
    result.inserted += c.inserted;
    result.updated += c.updated;
  };

  for await (const rec of source.records) {
    if (opts.signal?.aborted) throw new Cancelled();
    if (!rec.values && !rec.problem) continue;
    result.rows += 1;
    const pending: Pending = { rec, values: {}, blanks: [], key: null, errors: [] };
    if (rec.problem) pending.errors.push({ row: rec.row, column: null, message: rec.problem });
    if (rec.values) {
      for (const name in rec.values) {
        const raw = rec.values[name];
        if (isBlank(raw)) {
          pending.blanks.push(name);
          continue;
        }
        const kind = kinds.get(name)!;
        // Text read as text (most cells of most files) needs no conversion.
        if (kind === 'text' && typeof raw === 'string') {
          pending.values[name] = raw;
          continue;
        }
        const cell = readCell(kind, raw, cellCtx);
        if ('error' in cell) pending.errors.push({ row: rec.row, column: name, message: cell.error });
        else if (cell.value !== undefined) pending.values[name] = cell.value;
      }
      const rawKey = entity.keyOf ? entity.keyOf(pending.values) : pending.values[entity.key];
      if (typeof rawKey === 'string' && rawKey.trim() !== '') {
        const key = entity.keyOf ? rawKey : entity.normalizeKey(rawKey);
        const wrong = entity.checkKey?.(key);
        if (wrong) pending.errors.push({ row: rec.row, column: entity.key, message: `${quoted(rawKey)}: ${wrong}` });
        const first = firstRowOfKey.add(key, rec.row);
        if (first !== undefined) {
          pending.errors.push({
            row: rec.row,
            column: entity.key,
            message: `${quoted(rawKey)} is also on ${source.unit} ${formatCount(first)}; each ${entity.label} may appear once in a file`,
          });
        }
        pending.key = key;
      }
    }
    batch.push(pending);
    if (batch.length >= batchSize) await flush();
    if (opts.onProgress && result.rows - lastProgress >= 1000) {
      lastProgress = result.rows;
      opts.onProgress({
        processed: result.rows,
        errors: report.count,
        bytes: source.position.bytes,
        fileSize: source.fileSize,
      });
    }
  }
  await flush();
  if (opts.signal?.aborted) throw new Cancelled();
  if (entity.finish) {
    const done = await entity.finish(ctx, report.count === 0 && !opts.dryRun);
    for (const e of done.errors) await report.add(e);
    if (report.count === 0) add(done);
  }
  opts.onProgress?.({
    processed: result.rows,
    errors: report.count,
    bytes: source.fileSize,
    fileSize: source.fileSize,
  });
}
