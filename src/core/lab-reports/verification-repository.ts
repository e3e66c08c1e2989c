import type { Db } from '../db/connection.js';
import { samplesWithPatient } from '../db/joins.js';

/** What the public check of a printed report reads: the sample head and its verified tests. */

/** What the public verification page shows of a sample (the caller has checked the signature). */
export function verificationHead(db: Db, organizationId: number, sampleId: number) {
  return samplesWithPatient(db, organizationId)
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select([
      's.id',
      's.sample_code',
      's.collection_date',
      's.reported_at',
      'p.first_name',
      'p.last_name',
      'o.name as lab_name',
    ])
    .where('s.id', '=', sampleId)
    .executeTakeFirst();
}

/** The verified results of a sample: test name and verification time. */
export function verifiedTestsOf(db: Db, sampleId: number) {
  return db
    .selectFrom('test_results as r')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .select(['t.name', 'r.verified_at'])
    .where('r.sample_id', '=', sampleId)
    .where('r.status', '=', 'verified')
    .orderBy('r.id')
    .execute();
}

/** Category and method of some tests (the report groups by department and prints the method). */
export function testDetails(db: Db, testIds: number[]) {
  if (!testIds.length) return Promise.resolve([]);
  return db.selectFrom('tests').select(['id', 'category', 'method']).where('id', 'in', testIds).execute();
}
