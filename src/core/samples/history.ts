import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { raiseSequence } from '../sequences.js';
import type { SampleType } from '../../shared/samples.js';
import { insertHistoryRow, insertSampleRow, setSampleTests } from './repository.js';
import type { SamplesTable } from './tables.js';
import { actorName, freshBarcode } from './service.js';

/**
 * Samples of an earlier system (an import): stored with their code, barcode, status and
 * times as they were (no status machine: they are history). A sample past "pending" without a
 * barcode gets one, as lims gives every collected tube. The custody history gets one entry saying
 * it was imported; the audit trail its create row.
 */

/** A lims sample code: SMP + the day (YYYYMMDD) + its number that day. */
export const SAMPLE_CODE = /^SMP(\d{8})(\d{4,6})$/;

/** The table's columns a historical sample brings with their stored types. */
type StoredColumns = Pick<
  SamplesTable,
  | 'sample_code'
  | 'barcode'
  | 'patient_id'
  | 'bill_id'
  | 'container'
  | 'collector_id'
  | 'location'
  | 'priority'
  | 'status'
  | 'notes'
  | 'rejection_reason'
  | 'collection_date'
  | 'completed_at'
  | 'reported_at'
  | 'created_at'
>;

export interface HistoricalSample extends StoredColumns {
  sample_type: SampleType;
  test_ids: number[];
}

export async function insertHistoricalSample(trx: Db, actor: Actor, s: HistoricalSample): Promise<number> {
  const m = SAMPLE_CODE.exec(s.sample_code);
  if (m) await raiseSequence(trx, actor.organizationId, `sample:${m[1]}`, Number(m[2]));
  const { test_ids, ...rest } = s;
  const barcode =
    s.barcode ?? (s.status === 'pending' ? null : await freshBarcode(trx, actor.organizationId, s.sample_type));
  const row = await insertSampleRow(trx, {
    ...rest,
    barcode,
    organization_id: actor.organizationId,
    created_by: actor.userId,
    updated_at: nowIso(),
  });
  await setSampleTests(trx, row.id, test_ids);
  await insertHistoryRow(trx, {
    sample_id: row.id,
    from_status: null,
    to_status: row.status,
    changed_by: actor.userId,
    changed_by_name: await actorName(trx, actor),
    location: row.location,
    notes: 'imported',
    created_at: nowIso(),
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'sample',
    entityId: row.id,
    newValues: { ...row, test_ids, imported: true },
  });
  return row.id;
}
