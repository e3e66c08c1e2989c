import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { NotFoundError } from '../errors.js';
import { labSettings } from '../settings/service.js';
import { isPatientOfDoctor } from '../patients/repository.js';
import { actorHasPermission } from '../users/service.js';

/**
 * Whose results a reader may see. A doctor sees the patients of visits and bills that name them,
 * unless the lab's doctorsSeeAllPatients setting is on; everyone else with view_results sees all.
 */
export interface ResultScope {
  doctorId?: number;
  /** The front desk's print_reports without view_results: released reports only. */
  releasedOnly?: boolean;
}

export async function resultScope(db: Db, actor: Actor): Promise<ResultScope> {
  const releasedOnly = !(await actorHasPermission(db, actor, 'view_results'));
  const base = releasedOnly ? { releasedOnly } : {};
  const doctorId = await doctorLimit(db, actor);
  return doctorId === undefined ? base : { ...base, doctorId };
}

/**
 * The doctor whose own patients are all this reader may see (a doctor, unless the lab's
 * doctorsSeeAllPatients setting is on), else undefined. The patient lists, the patient record and
 * Patient History follow it as the results do, so a list never offers a patient its reader cannot open.
 */
export async function doctorLimit(db: Db, actor: Actor): Promise<number | undefined> {
  if (actor.role !== 'doctor' || !actor.userId) return undefined;
  return (await labSettings(db, actor.organizationId)).doctorsSeeAllPatients ? undefined : actor.userId;
}

/** Another doctor's patient answers as if it did not exist (404), so ids reveal nothing. */
export async function assertInScope(
  db: Db,
  scope: ResultScope,
  patientId: number,
  what: string,
  id: number,
): Promise<void> {
  if (scope.doctorId && !(await isPatientOfDoctor(db, scope.doctorId, patientId))) throw new NotFoundError(what, id);
}
