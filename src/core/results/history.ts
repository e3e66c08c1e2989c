import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { insertResultRow } from './entry-repository.js';

/**
 * Results of an earlier system (an import): stored as they were reported (value, unit,
 * range, flag, who entered them, who verified them there as text, when), as history; not
 * re-evaluated against today's ranges, no delta check, no notification. Each gets its audit row.
 */
export interface HistoricalResult {
  sample_id: number;
  test_id: number;
  patient_id: number;
  result_value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  is_critical: number;
  status: 'pending' | 'completed' | 'verified' | 'rejected';
  review_required: number;
  notes: string | null;
  rejection_reason: string | null;
  technician_id: number | null;
  entered_at: string;
  verified_by: number | null;
  verified_at: string | null;
  /** Who verified it in the lab's previous system (text): verified_by is the lims user who released it. */
  previous_verifier: string | null;
  /** A structured result's parameters as exported (JSON), else null. */
  structured_value: string | null;
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
