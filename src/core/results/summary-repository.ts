import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { verifierName, type ResultAmendment } from '../../shared/schemas/results.js';
import { parseStructured } from '../../shared/templates/index.js';
import { awaitingBase } from './repository.js';
import { fullName, resultsWithSampleAndTest } from '../db/joins.js';

/** Reads of results by sample and patient, their amendments, and the counts of the Results screen. */

export async function amendmentsOf(db: Db, resultIds: number[]): Promise<Map<number, ResultAmendment[]>> {
  const m = new Map<number, ResultAmendment[]>();
  if (!resultIds.length) return m;
  const rows = await db
    .selectFrom('result_amendments as a')
    .leftJoin('users as au', 'au.id', 'a.amended_by')
    .leftJoin('users as ov', 'ov.id', 'a.old_verified_by')
    .selectAll('a')
    .select([fullName('au').as('amended_by_name'), fullName('ov').as('old_verified_by_name')])
    .where('a.result_id', 'in', resultIds)
    .orderBy('a.id')
    .execute();
  for (const { result_id, old_structured, old_previous_verifier, old_autoverified_by, ...r } of rows)
    m.set(result_id, [
      ...(m.get(result_id) ?? []),
      {
        ...r,
        old_structured: parseStructured(old_structured),
        old_verified_by_name: verifierName(r.old_verified_by_name, old_previous_verifier, old_autoverified_by),
      },
    ]);
  return m;
}

export async function resultCounts(db: Db, organizationId: number, startOfTodayIso: string) {
  const row = await db
    .selectFrom('test_results')
    .select([
      sql<number>`count(*)`.as('entered'),
      sql<number>`sum(CASE WHEN status = 'completed' THEN 1 ELSE 0 END)`.as('completed'),
      sql<number>`sum(CASE WHEN status = 'verified' THEN 1 ELSE 0 END)`.as('verified'),
      sql<number>`sum(CASE WHEN status = 'rejected' THEN 1 ELSE 0 END)`.as('rejected'),
      sql<number>`sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END)`.as('pending'),
      sql<number>`sum(CASE WHEN status = 'completed' AND review_required = 1 THEN 1 ELSE 0 END)`.as('review_required'),
      sql<number>`sum(CASE WHEN flag IN ('low', 'high', 'abnormal') THEN 1 ELSE 0 END)`.as('abnormal'),
      sql<number>`sum(CASE WHEN is_critical = 1 AND status = 'completed' THEN 1 ELSE 0 END)`.as('critical'),
      sql<number>`sum(CASE WHEN is_critical = 1 AND status IN ('completed', 'verified') AND NOT EXISTS (SELECT 1 FROM critical_calls c WHERE c.result_id = test_results.id) THEN 1 ELSE 0 END)`.as(
        'critical_uncalled',
      ),
      sql<number>`sum(CASE WHEN status = 'verified' AND verified_at >= ${startOfTodayIso} THEN 1 ELSE 0 END)`.as(
        'validated_today',
      ),
    ])
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const awaiting = await awaitingBase(db, organizationId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const num = (v: number | null) => Number(v ?? 0);
  return {
    entered: num(row.entered),
    completed: num(row.completed),
    verified: num(row.verified),
    rejected: num(row.rejected),
    pendingStored: num(row.pending),
    reviewRequired: num(row.review_required),
    abnormal: num(row.abnormal),
    critical: num(row.critical),
    criticalUncalled: num(row.critical_uncalled),
    validatedToday: num(row.validated_today),
    awaiting: Number(awaiting.n),
  };
}

/** How many results a sample has (a sample with results is kept: reject it instead). */
export async function countResultsOfSample(db: Db, sampleId: number): Promise<number> {
  const r = await db
    .selectFrom('test_results')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sample_id', '=', sampleId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every result of a patient (any status), newest first, with the test's name and the sample code. */
export function resultRowsOfPatient(db: Db, organizationId: number, patientId: number) {
  return resultsWithSampleAndTest(db, organizationId)
    .select([
      'r.id',
      't.name as test_name',
      'r.status',
      'r.created_at',
      'r.result_value',
      'r.unit',
      'r.normal_range',
      'r.flag',
      'r.is_critical',
      'r.notes',
      's.sample_code',
      'r.verified_at',
    ])
    .where('r.patient_id', '=', patientId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}
