import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { NotFoundError } from '../errors.js';
import { labSettings } from '../settings/organization.js';
import { isPatientOfDoctor } from '../visits/repository.js';
import { actorHasPermission } from '../users/permissions.js';

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
  if (actor.role !== 'doctor' || !actor.userId) return base;
  return (await labSettings(db, actor.organizationId)).doctorsSeeAllPatients
    ? base
    : { ...base, doctorId: actor.userId };
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
