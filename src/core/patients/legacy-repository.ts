import type { Db } from '../db/connection.js';
import { ConflictError } from '../errors.js';
import type { PatientRow } from './repository.js';
import { labRows } from '../db/joins.js';
import { rowsByKeys } from '../db/dialect.js';

/**
 * A patient's number in the lab's earlier system (patients.legacy_id, one patient per number in a
 * lab): kept by an import instead of refused, and found by the front desk's search.
 */

/** The lab's patients with these old IDs, by old ID. */
export async function patientsByLegacyIds(
  db: Db,
  organizationId: number,
  ids: readonly string[],
): Promise<Map<string, PatientRow>> {
  const rows = await rowsByKeys(ids, (some) =>
    labRows(db, 'patients', organizationId).where('legacy_id', 'in', some).execute(),
  );
  return new Map(rows.map((r) => [r.legacy_id!, r]));
}

/** Refuses an old ID another patient of the lab already has (409 LEGACY_ID_TAKEN). */
export async function refuseTakenLegacyId(
  db: Db,
  organizationId: number,
  legacyId: string | null | undefined,
  exceptPatientId?: number,
): Promise<void> {
  if (!legacyId) return;
  const other = (await patientsByLegacyIds(db, organizationId, [legacyId])).get(legacyId);
  if (other && other.id !== exceptPatientId) {
    throw new ConflictError(
      `the old patient ID ${legacyId} is already ${other.first_name} ${other.last_name}'s (${other.patient_code})`,
      'LEGACY_ID_TAKEN',
    );
  }
}
