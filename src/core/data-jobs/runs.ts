import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database_ } from '../db/connection.js';
import { heavyBackground } from '../heavy/run.js';
import { runOnThread } from '../heavy/pool.js';
import type { HeavyEvent, HeavyTask } from '../heavy/tasks.js';
import { failInterruptedJobs, type NewJob, checkFilters, finishJob, queueJob, getJob } from '../transfer/service.js';
import { ValidationError } from '../errors.js';
import { getOrganization } from '../settings/service.js';
import { readUpload, removeUpload, uploadPaths } from './uploads.js';
import { localDate } from '../../shared/time.js';
import { type DataJob, type ExportStartBody, type ImportStartBody } from '../../shared/schemas/data-jobs.js';
import { dataDirs, ensureDir, movableEntity, type Requester } from './access.js';
import { running, type Running } from './running.js';
import { jobById, sweepExports } from './jobs.js';
import { checkMapping, reportDir, updateAllowed } from './upload-checks.js';

/** Imports and exports started in the background on a thread, queued for the lab's turn. */

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
  const entity = movableEntity(r, body.entity, 'import');
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
  const entity = movableEntity(r, body.entity, 'export');
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
