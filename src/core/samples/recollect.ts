import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { SampleType } from '../../shared/samples.js';
import type { Sample, SampleRecollect } from '../../shared/schemas/samples.js';
import { findSampleRow, testsOfSamples } from './repository.js';
import { getSample, storeSample } from './service.js';

/**
 * Recollect a rejected sample: a new tube (a new sample with its own barcode, so a label can be
 * printed before the draw) for the same patient, bill and tests, pending until it is collected.
 * The bill is not touched: the patient already paid for these tests. Refused (409) for a sample
 * that is not rejected, or that was already recollected.
 */
export async function recollectSample(db: Db, actor: Actor, id: number, input: SampleRecollect): Promise<Sample> {
  const newId = await db.transaction().execute(async (trx) => {
    const first = await findSampleRow(trx, actor.organizationId, { id });
    if (!first) throw new NotFoundError('Sample', id);
    if (first.status !== 'rejected')
      throw new ConflictError(
        `Sample ${first.sample_code} is ${first.status}; only a rejected sample can be recollected`,
        'NOT_REJECTED',
      );
    if (first.recollected_as !== null)
      throw new ConflictError(
        `Sample ${first.sample_code} was already recollected as ${first.recollected_as_code}`,
        'ALREADY_RECOLLECTED',
      );
    const tests = (await testsOfSamples(trx, [id])).get(id) ?? [];
    const created = await storeSample(trx, actor, {
      patient_id: first.patient_id,
      bill_id: first.bill_id,
      sample_type: first.sample_type as SampleType,
      container: first.container,
      location: input.location ?? first.location,
      priority: first.priority,
      status: 'pending',
      notes: input.notes ?? null,
      barcodeNow: true,
      test_ids: tests.map((t) => t.id),
      recollect_of: id,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'sample',
      entityId: id,
      newValues: { recollected_as: created, notes: input.notes ?? null },
    });
    return created;
  });
  return getSample(db, actor.organizationId, newId);
}
