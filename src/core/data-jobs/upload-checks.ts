import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { nowIso } from '../context.js';
import type { Database_ } from '../db/connection.js';
import { heavyWait } from '../heavy/run.js';
import { ValidationError } from '../errors.js';
import {
  fileHeaders,
  FileRefusedError,
  formatOfName,
  normalizeHeader,
  safeFileName,
  type AnyEntity,
  type ColumnMapping,
  type ImportResult,
} from '../transfer/service.js';
import {
  noteCheckReport,
  readUpload,
  receiveUpload,
  removeUpload,
  sweepUploads,
  uploadPaths,
  type UploadLimits,
  type UploadMeta,
} from './uploads.js';
import { type DataEntity, type ImportCheck, type Upload } from '../../shared/schemas/data-jobs.js';
import { dataDirs, ensureDir, movableEntity, type Requester } from './access.js';

/** Uploads kept for their import, and their check (a dry run on a thread). */

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
  const entity = movableEntity(r, q.entity, 'import');
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

export function checkMapping(entity: AnyEntity, mapping: ColumnMapping | undefined): ColumnMapping | undefined {
  if (!mapping) return undefined;
  const names = new Set(entity.columns.map((c) => c.name));
  for (const [k, v] of Object.entries(mapping)) {
    if (v !== null && v !== '' && !names.has(v))
      throw ValidationError.field(`mapping.${k}`, `${v} is not a column of ${entity.name}`);
  }
  const cleaned = Object.fromEntries(Object.entries(mapping).map(([k, v]) => [k, v || null]));
  return Object.keys(cleaned).length ? cleaned : undefined;
}

export function checkOf(result: ImportResult): ImportCheck {
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

export function updateAllowed(entity: AnyEntity, update: boolean | undefined): boolean {
  if (update && !entity.updateSchema)
    throw ValidationError.field('update', `${entity.name} cannot be updated by an import: ${entity.noUpdate ?? ''}`);
  return update ?? false;
}

export const reportDir = (dataDir: string) => ensureDir(dataDirs(dataDir).reports);

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
  const entity = movableEntity(r, body.entity, 'import');
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
