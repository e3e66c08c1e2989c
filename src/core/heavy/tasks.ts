import { createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Actor } from '../context.js';
import type { Db } from '../db/connection.js';
import { getOrganization } from '../settings/service.js';
import {
  entityNamed,
  runExport,
  runImport,
  type ColumnMapping,
  type ExportResult,
  type ImportResult,
} from '../transfer/service.js';
import type { ImportProgress } from '../transfer/import.js';
import type { TransferFormat } from '../transfer/limits.js';
import { billRegisterWriter } from '../data-jobs/bill-register.js';
import { monthlyPdf } from '../reports/monthly.js';
import { runReportAs } from '../reports/run.js';
import type { ReportRunQuery } from '../../shared/schemas/reports.js';
import { accountsExport } from '../accounts/service.js';
import type { AccountExportKind, Gstr1CsvSection } from '../../shared/schemas/accounts.js';

/**
 * The heavy jobs a worker thread runs (worker.ts), each on the worker's own database connection:
 * everything in them is plain data, so a job crosses to the thread and its answer comes back by
 * structured clone (a file's bytes are moved, not copied).
 */

export type HeavyTask =
  | { kind: 'report'; actor: Actor; id: string; query: ReportRunQuery }
  | { kind: 'monthly'; actor: Actor; month: string }
  | { kind: 'accounts'; actor: Actor; file: AccountExportKind; month: string; section?: Gstr1CsvSection }
  | {
      kind: 'import';
      actor: Actor;
      entity: string;
      path: string;
      fileName: string;
      mapping?: ColumnMapping;
      dryRun: boolean;
      update: boolean;
      /** Where error reports go: `import-<job>-<entity>-errors.csv` in this folder. */
      reportDir: string;
      /** The job recorded (queued) before the turn came; none for a check, which records its own. */
      jobId?: number;
      /** Files removed when the import has ended in any way, before its job shows how (the upload). */
      removeWhenDone?: string[];
    }
  | {
      kind: 'export';
      actor: Actor;
      entity: string;
      format: TransferFormat | 'pdf';
      from?: string;
      to?: string;
      where: Record<string, unknown>;
      /** The file written while the export runs, renamed to `export-<job>-<entity>.<format>` in `dir` when complete. */
      partial: string;
      dir: string;
      fileName: string;
      jobId: number;
    };

export interface FileAnswer {
  body: Uint8Array | string;
  type: string;
  name: string;
}

export type HeavyAnswer =
  | { kind: 'file'; file: FileAnswer }
  | { kind: 'import'; result: ImportResult }
  | { kind: 'export'; result: ExportResult };

/** What a job tells the thread that started it while it runs. */
export type HeavyEvent = { type: 'job'; id: number } | { type: 'progress'; import?: ImportProgress; rows?: number };

function entityOf(name: string) {
  const e = entityNamed(name);
  if (!e) throw new Error(`no entity ${name}`);
  return e;
}

export const exportFile = (dir: string, id: number, entity: string, format: string) =>
  join(dir, `export-${id}-${entity}.${format}`);

export async function performTask(
  db: Db,
  task: HeavyTask,
  emit: (e: HeavyEvent) => void,
  signal: AbortSignal,
): Promise<HeavyAnswer> {
  switch (task.kind) {
    case 'report': {
      const out = await runReportAs(db, task.actor, task.id, task.query);
      return { kind: 'file', file: out.file! };
    }
    case 'monthly':
      return { kind: 'file', file: (await monthlyPdf(db, task.actor, task.month)).file };
    case 'accounts': {
      const [file] = await accountsExport(db, task.actor, task.file, task.month, task.section);
      return { kind: 'file', file: file! };
    }
    case 'import': {
      const entity = entityOf(task.entity);
      const result = await runImport(db, task.actor, {
        entity,
        path: task.path,
        fileName: task.fileName,
        mapping: task.mapping,
        dryRun: task.dryRun,
        update: task.update,
        origin: 'web',
        signal,
        jobId: task.jobId,
        onEnded: () => task.removeWhenDone?.forEach((f) => rmSync(f, { force: true })),
        reportPath: (id) => join(task.reportDir, `import-${id}-${entity.name}-errors.csv`),
        spoolDir: task.reportDir,
        onJob: (id) => emit({ type: 'job', id }),
        onProgress: (p) => emit({ type: 'progress', import: p }),
      });
      return { kind: 'import', result };
    }
    case 'export': {
      const entity = entityOf(task.entity);
      const out = createWriteStream(task.partial, { mode: 0o600 });
      const finalPath = (id: number) => exportFile(task.dir, id, entity.name, task.format);
      const org = task.format === 'pdf' ? await getOrganization(db, task.actor.organizationId) : null;
      const result = await runExport(db, task.actor, {
        entity,
        format: task.format === 'pdf' ? 'csv' : task.format,
        query: { from: task.from, to: task.to, where: task.where },
        out,
        ...(org && { writer: async (o) => billRegisterWriter(org, o, { from: task.from, to: task.to }) }),
        fileName: task.fileName,
        origin: 'web',
        signal,
        jobFormat: task.format,
        jobId: task.jobId,
        onJob: (id) => emit({ type: 'job', id }),
        onProgress: (rows) => emit({ type: 'progress', rows }),
        settled: async () => {
          await finished(out);
          const size = statSync(task.partial).size;
          renameSync(task.partial, finalPath(task.jobId));
          return size;
        },
        outputFile: finalPath,
      });
      return { kind: 'export', result };
    }
  }
}
