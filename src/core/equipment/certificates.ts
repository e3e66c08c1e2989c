import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { equipmentNow } from './clock.js';
import { labDay } from './service.js';
import { deleteFileRow, insertFileRow, selectFile } from './repository.js';
import { findServiceRow } from './service-repository.js';
import { updateLabRow } from '../db/lab-row.js';
import { getService } from './work.js';
import { CERTIFICATE_MAX_BYTES, type Calibration, type CertificateUpload } from '../../shared/schemas/equipment.js';

/**
 * Calibration certificates: PDF or image, stored in the database. The type is read from the
 * file's first bytes (the name and any declared type are not trusted): PDF, PNG, JPEG or WebP;
 * anything else (SVG, HTML, an executable renamed .pdf) is refused.
 */
export function sniffCertificateType(bytes: Buffer): string | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
};

/** The name kept: its last part, safe characters only, with the extension of the real type. */
function storedName(fileName: string, type: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? 'certificate';
  const stem =
    last
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^\p{L}\p{N} ._-]/gu, '_')
      .slice(0, 150) || 'certificate';
  return `${stem}${EXTENSIONS[type]}`;
}

export async function uploadCertificate(
  db: Db,
  actor: Actor,
  id: number,
  input: CertificateUpload,
): Promise<Calibration> {
  const bytes = Buffer.from(input.content_base64.replace(/\s+/g, ''), 'base64');
  if (bytes.length === 0) throw ValidationError.field('content_base64', 'The file is empty');
  if (bytes.length > CERTIFICATE_MAX_BYTES)
    throw ValidationError.field('content_base64', `The file is larger than ${CERTIFICATE_MAX_BYTES / 1024 / 1024} MB`);
  const type = sniffCertificateType(bytes);
  if (!type)
    throw ValidationError.field('content_base64', 'A certificate must be a PDF or an image (PNG, JPEG or WebP)');
  await db.transaction().execute(async (trx) => {
    const { today } = await labDay(trx, actor.organizationId);
    const row = await findServiceRow(trx, actor.organizationId, 'calibration', id, today);
    if (!row) throw new NotFoundError('Calibration', id);
    if (row.set_status === 'cancelled')
      throw new ConflictError(`Calibration ${id} is cancelled; a certificate belongs to work done`, 'SERVICE_CLOSED');
    const file = await insertFileRow(trx, {
      organization_id: actor.organizationId,
      file_name: storedName(input.file_name, type),
      content_type: type,
      size: bytes.length,
      data: bytes,
      uploaded_by: actor.userId,
      uploaded_at: equipmentNow().toISOString(),
    });
    await updateLabRow(trx, 'equipment_services', actor.organizationId, id, {
      certificate_id: file.id,
      updated_at: file.uploaded_at,
    });
    if (row.certificate_id !== null) await deleteFileRow(trx, actor.organizationId, row.certificate_id);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'calibration',
      entityId: id,
      oldValues: { certificate_id: row.certificate_id },
      newValues: { certificate_id: file.id, certificate: file.file_name, content_type: type, size: bytes.length },
    });
  });
  return getService(db, actor.organizationId, 'calibration', id);
}

export async function readCertificate(db: Db, organizationId: number, id: number) {
  const { today } = await labDay(db, organizationId);
  const row = await findServiceRow(db, organizationId, 'calibration', id, today);
  if (!row) throw new NotFoundError('Calibration', id);
  const file = row.certificate_id === null ? undefined : await selectFile(db, organizationId, row.certificate_id);
  if (!file) throw new NotFoundError('Certificate of calibration', id);
  return { fileName: file.file_name, contentType: file.content_type, data: Buffer.from(file.data) };
}
