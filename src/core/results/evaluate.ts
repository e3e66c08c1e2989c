import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { computeFlag, isCritical } from '../../shared/flags.js';
import { rangeForPatient } from './mappers.js';

type Executor = Db | Transaction<DB>;

export interface Evaluation {
  normal_range: string | null;
  flag: string | null;
  is_critical: number;
  review_required: number;
}

/**
 * The server's judgement of a value: the range for the patient's sex and age on the collection day,
 * the flag against it, critical limits, and whether a validator must look closely (critical or not normal).
 */
export async function evaluateValue(
  trx: Executor,
  testId: number,
  patientId: number,
  collectedAt: string | null,
  value: string,
): Promise<Evaluation & { testUnit: string | null }> {
  const test = await trx
    .selectFrom('tests')
    .select(['unit', 'normal_range', 'reference_ranges'])
    .where('id', '=', testId)
    .executeTakeFirstOrThrow();
  const patient = await trx
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['p.gender', 'p.date_of_birth', 'o.timezone'])
    .where('p.id', '=', patientId)
    .executeTakeFirstOrThrow();
  const range = rangeForPatient(test, patient, collectedAt, patient.timezone);
  const flag = computeFlag(value, range?.range);
  const critical = isCritical(value, range);
  return {
    normal_range: range?.range ?? null,
    flag,
    is_critical: critical ? 1 : 0,
    review_required: critical || (flag !== null && flag !== 'normal') ? 1 : 0,
    testUnit: test.unit,
  };
}

export async function actorName(trx: Executor, actor: Actor): Promise<string | null> {
  if (!actor.userId) return actor.email;
  const u = await trx
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('id', '=', actor.userId)
    .executeTakeFirst();
  return u ? `${u.first_name} ${u.last_name}` : actor.email;
}

/** The custody history entry for a sample moved by result entry (same shape as the samples service writes). */
export async function addSampleHistory(
  trx: Executor,
  actor: Actor,
  sampleId: number,
  from: string,
  to: string,
  location: string | null,
  notes: string,
) {
  await trx
    .insertInto('sample_status_history')
    .values({
      sample_id: sampleId,
      from_status: from,
      to_status: to,
      changed_by: actor.userId,
      changed_by_name: await actorName(trx, actor),
      location,
      notes,
      created_at: nowIso(),
    })
    .execute();
}
