import { createWriteStream, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError, ValidationError } from '../errors.js';
import type { DataFormat } from '../../shared/schemas/data-jobs.js';
import { DEFAULT_UPLOAD_LIMIT_BYTES, DEFAULT_UPLOAD_QUOTA_BYTES } from '../../shared/api/data-jobs.js';

/**
 * The files the data screens receive for an import, under `<data dir>/uploads/<lab>/`: each
 * upload is `<id>.upload` with its `<id>.json`. The server's operator sets how large one may be
 * and how much a lab may hold at once (lims serve --upload-limit, --upload-quota): a file is cut
 * off while it streams, the moment it passes either, and nothing of it is left on disk. An
 * upload waits at most an hour for its import, and is removed at once when its import ends, when
 * the user discards it, or when it cannot be read at all.
 */

/** The server operator's limits on uploads (bytes). */
export interface UploadLimits {
  /** Largest file one import may send. */
  maxFileBytes: number;
  /** Most bytes of uploads one lab may hold on the server at once (waiting for their import, or arriving). */
  labQuotaBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: DEFAULT_UPLOAD_LIMIT_BYTES,
  labQuotaBytes: DEFAULT_UPLOAD_QUOTA_BYTES,
};

export interface UploadMeta {
  organization_id: number;
  user_id: number | null;
  entity: string;
  file_name: string;
  format: DataFormat | null;
  size: number;
  created_at: string;
  /** The error report of the upload's latest check: replaced by the next check, removed with the upload. */
  check_report?: string | null;
}

/** How long an upload waits for its import. */
const UPLOAD_TTL_MS = 60 * 60 * 1000;
const UPLOAD_ID = /^[a-f0-9]{32}$/;
const MB = 1024 * 1024;

export const uploadsRoot = (dataDir: string) => join(dataDir, 'uploads');

export function uploadPaths(dataDir: string, organizationId: number, id: string) {
  const dir = join(uploadsRoot(dataDir), String(organizationId));
  return { dir, file: join(dir, `${id}.upload`), meta: join(dir, `${id}.json`) };
}

/**
 * Bytes of each upload of a lab, by id: the files on disk (found by `syncHeld`) and the ones
 * arriving now, counted chunk by chunk, so uploads sent at once are held to the quota together.
 */
const held = new Map<string, Map<string, number>>();

/** A lab's count, by its uploads folder (a data dir and a lab). */
function heldOf(dir: string): Map<string, number> {
  let m = held.get(dir);
  if (!m) held.set(dir, (m = new Map()));
  return m;
}

/** Brings a lab's count in line with its folder: files found are counted, files gone are not. */
function syncHeld(dataDir: string, organizationId: number): Map<string, number> {
  const { dir } = uploadPaths(dataDir, organizationId, '');
  const m = heldOf(dir);
  const onDisk = new Set<string>();
  if (existsSync(dir))
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.upload')) continue;
      const id = f.slice(0, -'.upload'.length);
      onDisk.add(id);
      if (!m.has(id))
        try {
          m.set(id, statSync(join(dir, f)).size);
        } catch {
          // Removed meanwhile.
        }
    }
  for (const id of m.keys()) if (!onDisk.has(id)) m.delete(id);
  return m;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
/** A size as the messages give it: 256 MB, 1.5 GB, 64 KB. */
function mb(bytes: number): string {
  const [unit, size] = bytes >= 1024 * MB ? ['GB', 1024 * MB] : bytes >= MB ? ['MB', MB] : ['KB', 1024];
  return `${Math.round((bytes / (size as number)) * 10) / 10} ${unit as string}`;
}

export function removeUpload(dataDir: string, organizationId: number, id: string): void {
  const p = uploadPaths(dataDir, organizationId, id);
  removeCheckReport(dataDir, readMeta(p.meta)?.check_report);
  rmSync(p.file, { force: true });
  rmSync(p.meta, { force: true });
  held.get(p.dir)?.delete(id);
}

function readMeta(path: string): UploadMeta | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as UploadMeta;
  } catch {
    return null;
  }
}

/** Removes a check's error report; only a file of the data dir's reports folder is ever removed. */
function removeCheckReport(dataDir: string, report: string | null | undefined): void {
  if (report && report.startsWith(join(dataDir, 'import-reports') + sep)) rmSync(report, { force: true });
}

/**
 * Keeps the error report of an upload's latest check and removes the one before it: checks of one
 * upload again and again (another mapping each time) leave one report, not one per check.
 */
export function noteCheckReport(dataDir: string, organizationId: number, id: string, report: string | null): void {
  const p = uploadPaths(dataDir, organizationId, id);
  const meta = readMeta(p.meta);
  if (!meta) return removeCheckReport(dataDir, report);
  if (meta.check_report !== report) removeCheckReport(dataDir, meta.check_report);
  writeFileSync(p.meta, JSON.stringify({ ...meta, check_report: report }), { mode: 0o600 });
}

/** Removes uploads older than an hour (of every lab): an upload waits that long for its import. */
export function sweepUploads(dataDir: string): void {
  const root = uploadsRoot(dataDir);
  if (!existsSync(root)) return;
  const cutoff = Date.now() - UPLOAD_TTL_MS;
  for (const lab of readdirSync(root)) {
    const dir = join(root, lab);
    for (const f of readdirSync(dir)) {
      const id = /^([a-f0-9]{32})\.(upload|json)$/.exec(f)?.[1];
      try {
        if (statSync(join(dir, f)).mtimeMs >= cutoff) continue;
        // With its meta and its check's report.
        if (id && /^\d+$/.test(lab)) removeUpload(dataDir, Number(lab), id);
        else rmSync(join(dir, f), { force: true });
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

function tooLarge(limits: UploadLimits): DomainError {
  return new DomainError(
    413,
    'FILE_TOO_LARGE',
    `The file is larger than ${mb(limits.maxFileBytes)}, the largest import this server accepts; import it with lims import on the server, or split it`,
  );
}

function overQuota(limits: UploadLimits, others: number): DomainError {
  return new DomainError(
    413,
    'UPLOAD_QUOTA',
    `Your lab's uploads would pass ${mb(limits.labQuotaBytes)}, the most this server holds for a lab at once ` +
      `(${mb(others)} are waiting for their imports); finish or close those imports and try again`,
  );
}

/**
 * Streams an upload's body to its file under both limits; past either the stream is cut off (413)
 * and the file removed. `declared` (Content-Length) refuses a file known to be too large at once.
 */
export async function receiveUpload(
  dataDir: string,
  organizationId: number,
  id: string,
  body: Readable,
  limits: UploadLimits,
  declared?: number,
): Promise<number> {
  const p = uploadPaths(dataDir, organizationId, id);
  const lab = syncHeld(dataDir, organizationId);
  const others = total(lab);
  if (declared !== undefined && declared > limits.maxFileBytes) throw tooLarge(limits);
  if (declared !== undefined && others + declared > limits.labQuotaBytes) throw overQuota(limits, others);
  lab.set(id, 0);
  try {
    return await writeWithin(body, p.file, (size) => {
      if (size > limits.maxFileBytes) return tooLarge(limits);
      lab.set(id, size);
      return total(lab) > limits.labQuotaBytes ? overQuota(limits, total(lab) - size) : null;
    });
  } catch (err) {
    removeUpload(dataDir, organizationId, id);
    throw err;
  }
}

/**
 * Writes `body` to `file` while `refusal(bytes so far)` answers null. Past that the body is left
 * unread rather than destroyed, so the refusal can still be answered on its connection (which the
 * route then closes); the file's own stream is closed.
 */
function writeWithin(body: Readable, file: string, refusal: (size: number) => Error | null): Promise<number> {
  const out = createWriteStream(file, { mode: 0o600 });
  let size = 0;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const stop = (err: Error) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.pause();
      out.destroy();
      out.once('close', () => reject(err));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      const refused = refusal(size);
      if (refused) return stop(refused);
      if (!out.write(chunk)) {
        body.pause();
        out.once('drain', () => body.resume());
      }
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      out.end(() => resolve(size));
    };
    out.on('error', stop);
    body.on('error', stop);
    body.on('aborted', () => stop(new Error('the upload was interrupted')));
    body.on('data', onData);
    body.on('end', onEnd);
  });
}

/** An upload of this user in their lab, with its facts; 400 on upload_id when it is not (or no longer) kept. */
export function readUpload(
  dataDir: string,
  who: { organizationId: number; userId: number | null },
  id: string,
): { meta: UploadMeta; file: string } {
  if (!UPLOAD_ID.test(id)) throw ValidationError.field('upload_id', 'upload_id is not an upload of this server');
  const p = uploadPaths(dataDir, who.organizationId, id);
  if (!existsSync(p.meta) || !existsSync(p.file))
    throw ValidationError.field('upload_id', 'the uploaded file is no longer kept (an hour at most); upload it again');
  const meta = JSON.parse(readFileSync(p.meta, 'utf8')) as UploadMeta;
  if (meta.organization_id !== who.organizationId || meta.user_id !== who.userId)
    throw ValidationError.field('upload_id', 'upload_id is not an upload of yours');
  return { meta, file: p.file };
}
