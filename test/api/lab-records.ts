/**
 * Samples and results written straight into their tables, for tests of the modules that only read
 * them (Patient History, the patient portal): these tests do not depend on the samples/results API.
 */
import type { Db } from '../../src/core/db/connection.js';

let seq = 0;

export interface SeedSample {
  patientId: number;
  testIds: number[];
  status?: 'pending' | 'collected' | 'processing' | 'completed' | 'rejected';
  /** Code prefix, so a test can tell its samples apart. */
  prefix?: string;
}

export async function seedSample(db: Db, organizationId: number, s: SeedSample): Promise<{ id: number; code: string }> {
  seq += 1;
  const now = new Date().toISOString();
  const status = s.status ?? 'processing';
  const code = `${s.prefix ?? 'SMPTEST'}${String(seq).padStart(4, '0')}`;
  const row = await db
    .insertInto('samples')
    .values({
      organization_id: organizationId,
      sample_code: code,
      barcode: null,
      patient_id: s.patientId,
      bill_id: null,
      sample_type: 'Blood',
      collector_id: null,
      location: 'Main Lab',
      priority: 'normal',
      status,
      notes: null,
      rejection_reason: null,
      collection_date: status === 'pending' ? null : now,
      completed_at: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (s.testIds.length) {
    await db
      .insertInto('sample_tests')
      .values(s.testIds.map((test_id, position) => ({ sample_id: row.id, test_id, position })))
      .execute();
  }
  return { id: row.id, code };
}

export interface SeedResult {
  sampleId: number;
  patientId: number;
  testId: number;
  value: string;
  flag: 'normal' | 'low' | 'high' | 'abnormal';
  status: 'pending' | 'completed' | 'verified' | 'rejected';
  /** The verifier (a staff user id) when status is verified. */
  verifiedBy?: number | null;
}

export async function seedResult(db: Db, organizationId: number, r: SeedResult): Promise<number> {
  const now = new Date().toISOString();
  const verified = r.status === 'verified';
  const row = await db
    .insertInto('test_results')
    .values({
      organization_id: organizationId,
      sample_id: r.sampleId,
      test_id: r.testId,
      patient_id: r.patientId,
      result_value: r.value,
      unit: 'mg/dL',
      normal_range: '70-110',
      flag: r.flag,
      is_critical: 0,
      status: r.status,
      review_required: 0,
      notes: `remark ${r.value}`,
      rejection_reason: null,
      technician_id: null,
      entered_at: now,
      verified_by: verified ? (r.verifiedBy ?? null) : null,
      verified_at: verified ? now : null,
      amended: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
