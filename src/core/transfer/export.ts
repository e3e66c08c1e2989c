import type { Writable } from 'node:stream';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { failInterruptedJobs, finishJob, startJob } from './jobs.js';
import { recordWriter } from './writers.js';
import type { AnyEntity, ExportQuery } from './entity.js';
import type { TransferFormat } from './limits.js';

/**
 * `lims export` (issue 14): the entity's records, page by page from the database, written as they
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
}

export interface ExportResult {
  job_id: number;
  entity: string;
  format: TransferFormat;
  rows: number;
  file_name: string | null;
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

export async function runExport(db: Db, actor: Actor, opts: ExportOptions): Promise<ExportResult> {
  const { entity, format } = opts;
  if ((opts.query.from || opts.query.to) && !entity.dateField)
    throw ValidationError.field('from', `${entity.name} have no date to choose them by; leave out --from and --to`);
  await failInterruptedJobs(db);
  const options = { from: opts.query.from ?? null, to: opts.query.to ?? null, where: opts.query.where };
  const jobId = await startJob(db, actor, {
    type: 'export',
    entity: entity.name,
    format,
    origin: opts.origin,
    fileName: opts.fileName,
    fileSize: null,
    options,
  });
  let rows = 0;
  let complete = false;
  let fileSize: number | null = null;
  try {
    const writer = await recordWriter(format, opts.out, entity.columns, entity.name);
    for await (const page of entity.exportPages(db, actor.organizationId, opts.query)) {
      await writer.write(page);
      rows += page.length;
      opts.onProgress?.(rows);
    }
    await writer.close();
    if (!opts.out.writableEnded) opts.out.end();
    fileSize = (await opts.settled?.()) ?? null;
    complete = true;
  } finally {
    await writeAudit(db, actor, {
      action: 'export',
      entity: entity.auditEntity,
      status: complete ? 'success' : 'failed',
      newValues: { job: jobId, format, ...options, rows, complete },
    });
    await finishJob(db, jobId, {
      status: complete ? 'completed' : 'failed',
      records: rows,
      processed: rows,
      errorMessage: complete ? null : 'the export stopped before it was written to the end',
      fileSize,
    });
  }
  return { job_id: jobId, entity: entity.name, format, rows, file_name: opts.fileName };
}
