import { hostname } from 'node:os';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import type { DataJobsTable } from './tables.js';
import type { ErrorGroup, RowError } from './errors.js';
import {
  findJobRow,
  insertJobRow,
  recentJobRows,
  runningJobRows,
  updateJobRow,
  type DataJobRow,
} from './job-repository.js';

/**
 * Import and export jobs (data_jobs): every `lims import` and `lims export` is one, so the data
 * screens list the CLI's work in the same history as their own. A job is written in its own short
 * transactions, never inside the import's, so a failed or interrupted import keeps its record.
 */

export type { DataJobRow };

export interface NewJob {
  type: 'import' | 'export';
  entity: string;
  format: DataJobsTable['format'];
  origin: 'cli' | 'web';
  dryRun?: boolean;
  fileName: string | null;
  fileSize: number | null;
  options: Record<string, unknown>;
}

/** This process, as named on the jobs it runs. */
export function workerName(): string {
  return `cli:${hostname()}:${process.pid}`;
}

function jobName(j: NewJob): string {
  const what = j.type === 'import' ? `Import ${j.entity}` : `Export ${j.entity}`;
  const from = j.fileName ? (j.type === 'import' ? ` from ${j.fileName}` : ` to ${j.fileName}`) : '';
  return `${j.dryRun ? 'Check ' : ''}${what}${from}`.replace(/^Check Import/, 'Check import of');
}

/** Records a job as running (started now by this process) and answers its id. */
export async function startJob(db: Db, actor: Actor, j: NewJob): Promise<number> {
  return insertJob(db, actor, j, 'in_progress');
}

/**
 * Records a job waiting for its turn (the server's heavy-job queue: at most a few of a lab's jobs run
 * at once) and answers its id; beginJob marks it running when its turn comes.
 */
export async function queueJob(db: Db, actor: Actor, j: NewJob): Promise<number> {
  return insertJob(db, actor, j, 'pending');
}

/** A queued job starts now, run by this process. */
export async function beginJob(db: Db, id: number): Promise<void> {
  const now = nowIso();
  await updateJobRow(db, id, { status: 'in_progress', worker: workerName(), started_at: now, updated_at: now });
}

async function insertJob(db: Db, actor: Actor, j: NewJob, status: 'pending' | 'in_progress'): Promise<number> {
  const now = nowIso();
  return insertJobRow(db, {
    organization_id: actor.organizationId,
    name: jobName(j),
    type: j.type,
    entity: j.entity,
    format: j.format,
    status,
    origin: j.origin,
    dry_run: j.dryRun ? 1 : 0,
    file_name: j.fileName,
    file_size: j.fileSize,
    records: null,
    processed: 0,
    inserted: 0,
    updated: 0,
    errors: 0,
    options: JSON.stringify(j.options),
    error_message: null,
    error_report: null,
    error_groups: null,
    error_file: null,
    output_file: null,
    worker: workerName(),
    requested_by: actor.userId,
    requested_by_name: actor.userId ? actor.email : (actor.email ?? 'cli'),
    download_count: 0,
    requested_at: now,
    started_at: status === 'in_progress' ? now : null,
    completed_at: null,
    updated_at: now,
  });
}

export interface JobOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  records: number;
  processed: number;
  inserted?: number;
  updated?: number;
  errors?: number;
  errorMessage?: string | null;
  firstErrors?: readonly RowError[];
  errorGroups?: readonly ErrorGroup[];
  errorFile?: string | null;
  fileSize?: number | null;
  outputFile?: string | null;
}

export async function finishJob(db: Db, id: number, o: JobOutcome): Promise<void> {
  const now = nowIso();
  await updateJobRow(db, id, {
    status: o.status,
    records: o.records,
    processed: o.processed,
    inserted: o.inserted ?? 0,
    updated: o.updated ?? 0,
    errors: o.errors ?? 0,
    error_message: o.errorMessage ?? null,
    error_report: o.firstErrors?.length ? JSON.stringify(o.firstErrors) : null,
    error_groups: o.errorGroups?.length ? JSON.stringify(o.errorGroups) : null,
    error_file: o.errorFile ?? null,
    ...(o.fileSize !== undefined && { file_size: o.fileSize }),
    ...(o.outputFile !== undefined && { output_file: o.outputFile }),
    worker: null,
    completed_at: now,
    updated_at: now,
  });
}

/** A job of the lab, or undefined. */
export function getJob(db: Db, organizationId: number, id: number): Promise<DataJobRow | undefined> {
  return findJobRow(db, organizationId, id);
}

export function recentJobs(db: Db, organizationId: number, limit = 50): Promise<DataJobRow[]> {
  return recentJobRows(db, organizationId, limit);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Jobs this machine's CLI left running when its process died (a kill -9, a power cut): marked
 * failed, since their import's transaction never committed. Called before each new job.
 */
export async function failInterruptedJobs(db: Db): Promise<number> {
  const prefix = `cli:${hostname()}:`;
  let failed = 0;
  for (const j of await runningJobRows(db)) {
    if (!j.worker?.startsWith(prefix)) continue;
    const pid = Number(j.worker.slice(prefix.length));
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    const now = nowIso();
    await updateJobRow(db, j.id, {
      status: 'failed',
      error_message: 'interrupted: the process running it stopped before it finished; nothing of it was stored',
      worker: null,
      completed_at: now,
      updated_at: now,
    });
    failed += 1;
  }
  return failed;
}
