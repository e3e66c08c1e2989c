import type { Db } from '../src/core/db/connection.js';

/**
 * Collected samples written straight into the tables (a bench's setup, not what it measures):
 * `n` samples of one patient, codes `<prefix>000000` on, each ordering the tests `testsOf` gives.
 */
export async function collectedSamples(
  db: Db,
  organizationId: number,
  patientId: number,
  prefix: string,
  n: number,
  testsOf: (i: number) => number[],
): Promise<{ id: number; code: string }[]> {
  const now = new Date().toISOString();
  const out: { id: number; code: string }[] = [];
  for (let i = 0; i < n; i++) {
    const code = `${prefix}${String(i).padStart(6, '0')}`;
    const row = await db
      .insertInto('samples')
      .values({
        organization_id: organizationId,
        sample_code: code,
        barcode: code,
        patient_id: patientId,
        bill_id: null,
        sample_type: 'Blood',
        collector_id: null,
        location: 'Main Lab',
        priority: 'normal',
        status: 'collected',
        notes: null,
        rejection_reason: null,
        collection_date: now,
        completed_at: null,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sample_tests')
      .values(testsOf(i).map((test_id, position) => ({ sample_id: row.id, test_id, position })))
      .execute();
    out.push({ id: row.id, code });
  }
  return out;
}
