import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { isValidBarcode, type SampleType } from '../../shared/samples.js';
import type { Sample } from '../../shared/schemas/samples.js';
import { barcodeOwner, findSampleRow, samplesWithoutBarcode, updateSampleRow } from './repository.js';
import { load, freshBarcode } from './service.js';
import { barcodeReserved } from './reservation-repository.js';

/** Finding a tube by its barcode, checking a typed barcode, and giving barcodes to tubes without one. */

export async function sampleByBarcode(db: Db, organizationId: number, barcode: string): Promise<Sample> {
  if (!isValidBarcode(barcode)) throw ValidationError.field('barcode', 'The scanned barcode format is invalid');
  const row = await findSampleRow(db, organizationId, { barcode });
  if (!row) throw new NotFoundError('Sample with barcode', barcode);
  return load(db, organizationId, row.id);
}

export async function checkBarcode(
  db: Db,
  organizationId: number,
  barcode: string,
): Promise<{ isUnique: boolean; valid: boolean }> {
  const valid = isValidBarcode(barcode);
  if (!valid) return { isUnique: false, valid };
  const taken =
    (await barcodeOwner(db, organizationId, barcode)) || (await barcodeReserved(db, organizationId, barcode));
  return { isUnique: !taken, valid };
}

/** Generate Missing Barcodes: every sample without one gets one, in one transaction. */
export async function generateMissingBarcodes(db: Db, actor: Actor): Promise<{ generated: number; samples: string[] }> {
  return db.transaction().execute(async (trx) => {
    const rows = await samplesWithoutBarcode(trx, actor.organizationId);
    for (const r of rows) {
      const barcode = await freshBarcode(trx, actor.organizationId, r.sample_type as SampleType);
      await updateSampleRow(trx, r.id, { barcode, updated_at: nowIso() });
      await writeAudit(trx, actor, {
        action: 'update',
        entity: 'sample',
        entityId: r.id,
        oldValues: { barcode: null },
        newValues: { barcode },
      });
    }
    return { generated: rows.length, samples: rows.map((r) => r.sample_code) };
  });
}
