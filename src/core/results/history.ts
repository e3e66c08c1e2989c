import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { insertResultRow } from './entry-repository.js';
import type { TestResultsTable } from './tables.js';

/** The table's columns a historical result brings with their stored types. */
type StoredColumns = Pick<
  TestResultsTable,
  | 'sample_id'
  | 'test_id'
  | 'patient_id'
  | 'result_value'
  | 'unit'
  | 'normal_range'
  | 'flag'
  | 'is_critical'
  | 'review_required'
  | 'notes'
  | 'rejection_reason'
  | 'technician_id'
  | 'verified_by'
  | 'verified_at'
  | 'structured_value'
>;

/**
 * Results of an earlier system (an import): stored as they were reported (value, unit,
 * range, flag, who entered them, who verified them there as text, when), as history; not
 * re-evaluated against today's ranges, no delta check, no notification. Each gets its audit row.
 */
export interface HistoricalResult extends StoredColumns {
  status: 'pending' | 'completed' | 'verified' | 'rejected';
  entered_at: string;
  /** Who verified it in the lab's previous system (text): verified_by is the lims user who released it. */
  previous_verifier: string | null;
}

export async function insertHistoricalResult(trx: Db, actor: Actor, r: HistoricalResult): Promise<number> {
  const row = await insertResultRow(trx, {
    ...r,
    organization_id: actor.organizationId,
    amended: 0,
    previous_value: null,
    previous_at: null,
    created_at: r.entered_at,
    updated_at: nowIso(),
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'test_result',
    entityId: row.id,
    newValues: { ...row, imported: true },
  });
  return row.id;
}
