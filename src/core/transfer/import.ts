import { tmpdir } from 'node:os';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { withBigWriteCache } from '../db/dialect.js';
import { onOneConnection } from '../db/staging.js';
import { stagePlans } from './staging.js';
import { ValidationError } from '../errors.js';
import { FileRefusedError } from './errors.js';
import { ErrorReport } from './report.js';
import { beginJob, finishJob, failInterruptedJobs, startJob } from './jobs.js';
import { formatOf, openSource, safeFileName } from './source.js';
import type { TransferFormat } from './limits.js';
import type { ImportOptions, ImportResult } from './import-types.js';
import { PlanSpool } from './spool.js';
import { Cancelled, checkRows, storeRows } from './passes.js';

/**
 * `lims import`: two passes. The check pass reads every row of the file, converts it, checks it
 * with the API's schema and looks it up (duplicates, references by natural key) in batches, without
 * the write lock; reading on after the first error finds every other error for the report. A dry
 * run ends there. A real import whose file is clean keeps each batch's planned rows in a spool
 * (spool.ts); an entity with a stage (staging.ts) builds its new rows into TEMP tables next, still
 * without the lock; and the store pass then writes them in ONE transaction: all or nothing (a
 * kill -9 mid-way leaves nothing, as the transaction never commits), and the write lock is held
 * only for the writing (staged rows: one copy), not for reading, checking or building rows. A key stored by someone else between the two
 * passes is found again in the store pass and refuses the import, naming the row.
 */

class Rollback extends Error {}

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
      const checked = async (spool: PlanSpool | null) => {
        try {
          return await checkRows(database, actor, opts, source, report, result, spool);
        } finally {
          result.ignored_columns = [...source.ignored];
        }
      };
      if (opts.dryRun) await checked(null);
      else {
        const spool = PlanSpool.create(opts.spoolDir ?? tmpdir());
        try {
          const ctx = await checked(spool);
          if (report.count > 0) throw new Rollback();
          await onOneConnection(database, async (db) => {
            ctx.db = db;
            const staged = await stagePlans(db, ctx, opts, spool, result);
            try {
              await withBigWriteCache(db, () =>
                db.transaction().execute(async (trx) => {
                  if (staged) {
                    const done = await staged.stage.commit(trx);
                    for (const e of done.errors) await report.add(e);
                    if (report.count > 0) throw new Rollback();
                    result.inserted += done.inserted;
                  }
                  await storeRows(trx, ctx, opts, staged?.rest ?? spool, report, result);
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
                }),
              );
            } finally {
              if (staged) {
                staged.rest.remove();
                await staged.stage.drop(db);
              }
            }
          });
        } finally {
          spool.remove();
        }
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

export type { ImportOptions, ImportProgress, ImportResult } from './import-types.js';
