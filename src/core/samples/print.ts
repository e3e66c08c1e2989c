import type { Db } from '../db/connection.js';
import { ConflictError } from '../errors.js';
import { getOrganization } from '../settings/service.js';
import { sampleLabelPdf } from '../pdf/label.js';
import { getSample } from './service.js';

/** The tube label PDF, the same bytes for the UI and `lims samples label`. */
export async function labelPdfForSample(
  db: Db,
  organizationId: number,
  sampleId: number,
): Promise<{ pdf: Buffer; sampleCode: string }> {
  const sample = await getSample(db, organizationId, sampleId);
  if (!sample.barcode)
    throw new ConflictError(
      `Sample ${sample.sample_id} has no barcode yet; collect it or generate its barcode first`,
      'NO_BARCODE',
    );
  const org = await getOrganization(db, organizationId);
  return { pdf: await sampleLabelPdf(org, sample), sampleCode: sample.sample_id };
}

/** Accepts the database id, the sample code (SMP...) or the barcode (the CLI's sample argument). */
export { findSampleId } from './repository.js';
