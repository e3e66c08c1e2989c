import type { Writable } from 'node:stream';
import { writeFailure } from './output-errors.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { beginJob, failInterruptedJobs, finishJob, startJob } from './jobs.js';
import { putChunk, recordWriter, type RecordWriter } from './writers.js';
import { sqliteWalFile, type Db } from '../db/connection.js';
import type { ParallelExport, ParallelSettings } from './parallel.js';
import type { AnyEntity, ExportQuery } from './entity.js';
import type { TransferFormat } from './limits.js';

/**
 * `lims export`: the entity's records, page by page from the database, written as they
 * come (constant memory on a million rows), recorded as a job and in the audit trail with the
 * filters and the number of rows.
 */

export interface ExportOptions {
  entity: AnyEntity;
  format: TransferFormat;
  query: ExportQuery;
  /** Where the file goes: a file stream or a pipe (it is ended when the export is written). */
  out: Writable;
  /** The output file's name, for the job (null: standard output). */
  fileName: string | null;
  origin: 'cli' | 'web';
  onProgress?: (rows: number) => void;
  /** Resolves, once the destination has everything, with the bytes it holds (the job's file size). */
  settled?: () => Promise<number | null>;
  /** Called with the job's id once it is recorded. */
  onJob?: (jobId: number) => void;
  /** Where the server keeps the file (the job's output_file, for downloads again). */
  outputFile?: (jobId: number) => string | null;
  /** Writes the records some other way than `format` (the data screens' bill register PDF); the job says `jobFormat`. */
  writer?: (out: Writable) => Promise<RecordWriter>;
  jobFormat?: TransferFormat | 'pdf';
  /** Cancel: the export stops at the next page; the job is cancelled (the caller removes the file). */
  signal?: AbortSignal;
  /**
   * A CSV export of an entity with exportParallel, from a SQLite file in WAL mode, may run on worker
   * threads with these settings (parallel.ts); the command line's exports only (decisions.md).
   */
  parallel?: ParallelSettings;
  /** A job already recorded as queued (jobs.ts queueJob): this export is it, started now. */
  jobId?: number;
}

export interface ExportResult {
  job_id: number;
  status: 'completed' | 'cancelled';
  entity: string;
  format: TransferFormat;
  rows: number;
  file_name: string | null;
  /** The threads that read and wrote the rows: 1, or the worker threads of a parallel CSV export. */
  threads: number;
}

/** --where values checked with the entity's filter schemas; an unknown field names the ones there are. */
export function checkFilters(entity: AnyEntity, where: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(where)) {
    const schema = entity.filters[field];
    if (!schema) {
      const known = Object.keys(entity.filters);
      throw ValidationError.field(
        'where',
        `${entity.name} cannot be filtered on ${field}; ${known.length ? `filter on ${known.join(', ')}` : 'they take no --where'}`,
      );
    }
    const r = schema.safeParse(value);
    if (!r.success)
      throw ValidationError.field('where', `${field}=${value}: ${r.error.issues[0]?.message ?? 'not allowed'}`);
    out[field] = r.data;
  }
  return out;
}

/** The export on worker threads when it may and pays (parallel.ts), else null: one thread. */
async function parallelExport(db: Db, organizationId: number, opts: ExportOptions): Promise<ParallelExport | null> {
  const { entity } = opts;
  if (!opts.parallel || opts.format !== 'csv' || opts.writer || !entity.exportParallel) return null;
  const file = sqliteWalFile(db);
  if (!file) return null;
  const plan = await entity.exportParallel(db, organizationId, opts.query);
  if (!plan) return null;
  const { startParallelExport } = await import('./parallel.js');
  return startParallelExport(
    file,
    plan,
    entity.columns.map((c) => c.kind ?? 'text'),
    opts.parallel,
  );
}

export async function runExport(db: Db, actor: Actor, opts: ExportOptions): Promise<ExportResult> {
  const { entity, format } = opts;
  if ((opts.query.from || opts.query.to) && !entity.dateField)
    throw ValidationError.field('from', `${entity.name} have no date to choose them by; leave out --from and --to`);
  await failInterruptedJobs(db);
  const options = { from: opts.query.from ?? null, to: opts.query.to ?? null, where: opts.query.where };
  if (opts.jobId !== undefined) await beginJob(db, opts.jobId);
  const jobId =
    opts.jobId ??
    (await startJob(db, actor, {
      type: 'export',
      entity: entity.name,
      format: opts.jobFormat ?? format,
      origin: opts.origin,
      fileName: opts.fileName,
      fileSize: null,
      options,
    }));
  opts.onJob?.(jobId);
  let rows = 0;
  let complete = false;
  let cancelled = false;
  let fileSize: number | null = null;
  let threads: ParallelExport | null = null;
  let failure: unknown = null;
  try {
    const writer = opts.writer
      ? await opts.writer(opts.out)
      : await recordWriter(format, opts.out, entity.columns, entity.name);
    threads = await parallelExport(db, actor.organizationId, opts);
    if (threads) {
      try {
        // The header, then each range's CSV lines as the workers wrote them, in order.
        await writer.writeArrays!([]);
        for await (const chunk of threads.chunks()) {
          if (opts.signal?.aborted) {
            cancelled = true;
            break;
          }
          await putChunk(opts.out, chunk.bytes);
          rows += chunk.rows;
          opts.onProgress?.(rows);
        }
      } finally {
        await threads.close();
      }
    } else {
      // The array walk when the entity has one (same values, no object per record), else records.
      const arrays = entity.exportArrayPages && writer.writeArrays ? writer.writeArrays.bind(writer) : null;
      const pages: AsyncIterable<readonly unknown[]> =
        arrays && entity.exportArrayPages
          ? entity.exportArrayPages(db, actor.organizationId, opts.query)
          : entity.exportPages(db, actor.organizationId, opts.query);
      for await (const page of pages) {
        if (opts.signal?.aborted) {
          cancelled = true;
          break;
        }
        if (arrays) await arrays(page as unknown[][]);
        else await writer.write(page as Record<string, unknown>[]);
        rows += page.length;
        opts.onProgress?.(rows);
      }
    }
    if (!cancelled) {
      await writer.close();
      if (!opts.out.writableEnded) opts.out.end();
      fileSize = (await opts.settled?.()) ?? null;
      complete = true;
    } else opts.out.destroy();
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    await writeAudit(db, actor, {
      action: 'export',
      entity: entity.auditEntity,
      status: complete ? 'success' : 'failed',
      newValues: { job: jobId, format, ...options, rows, complete, ...(cancelled && { cancelled: true }) },
    });
    await finishJob(db, jobId, {
      status: complete ? 'completed' : cancelled ? 'cancelled' : 'failed',
      records: rows,
      processed: rows,
      errorMessage: complete
        ? null
        : cancelled
          ? 'cancelled before it was written to the end'
          : // A write's reason is kept (the disk was full); any other error's text stays in the log only.
            `the export stopped before it was written to the end${writeFailure(failure) ? `: ${writeFailure(failure)}` : ''}`,
      fileSize,
      ...(complete && opts.outputFile && { outputFile: opts.outputFile(jobId) }),
    });
  }
  return {
    job_id: jobId,
    status: cancelled ? 'cancelled' : 'completed',
    entity: entity.name,
    format,
    rows,
    file_name: opts.fileName,
    threads: threads?.threads ?? 1,
  };
}
