import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { labToday } from '../settings/service.js';
import type { PatientMergeResult } from '../../shared/schemas/patients.js';
import { deletePatientRow, findPatient } from './repository.js';
import { toPatient } from './mappers.js';
import {
  KEYED_PATIENT_TABLES,
  MOVED_TABLES,
  insertAlias,
  moveKeyedRows,
  movePortalAccess,
  moveRows,
  repointAliases,
} from './merge-repository.js';

/**
 * Merges a duplicate into the patient kept, in one transaction: every bill, payment, invoice,
 * sample, result, visit and portal session of the duplicate moves to the kept patient, its portal
 * PIN too when the kept patient has none; then the duplicate's row is deleted (so lists, counts,
 * reports and search hold one record) and its code stays as an alias that still finds the kept
 * patient (search, GET by code or by the old id, the portal's sign-in). Codes merged into the
 * duplicate earlier follow it. Audited on both records.
 */
export async function mergePatient(db: Db, actor: Actor, id: number, into: number): Promise<PatientMergeResult> {
  if (id === into) throw ValidationError.field('into', 'A patient cannot be merged into itself');
  const org = actor.organizationId;
  const { kept, code, moved } = await db.transaction().execute(async (trx) => {
    const merged = await findPatient(trx, org, id);
    if (!merged) throw new NotFoundError('Patient', id);
    const kept = await findPatient(trx, org, into);
    if (!kept) throw new NotFoundError('Patient', into);
    const moved: Record<string, number> = {};
    for (const table of MOVED_TABLES) moved[table] = await moveRows(trx, org, table, id, into);
    for (const table of Object.keys(KEYED_PATIENT_TABLES) as (keyof typeof KEYED_PATIENT_TABLES)[])
      moved[table] = await moveKeyedRows(trx, org, table, id, into);
    moved.portal_access = (await movePortalAccess(trx, org, id, into)) ? 1 : 0;
    moved.aliases = await repointAliases(trx, org, id, into);
    await insertAlias(trx, {
      organization_id: org,
      patient_code: merged.patient_code,
      merged_patient_id: id,
      patient_id: into,
      merged_by: actor.userId,
      merged_at: nowIso(),
    });
    await deletePatientRow(trx, org, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'patient',
      entityId: id,
      oldValues: merged,
      newValues: { merged_into: into, merged_into_code: kept.patient_code },
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'patient',
      entityId: into,
      newValues: { merged_from: id, merged_from_code: merged.patient_code, moved },
    });
    return { kept, code: merged.patient_code, moved };
  });
  return { patient: toPatient(kept, await labToday(db, org)), merged: code, moved };
}
