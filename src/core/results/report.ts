import type { Db } from '../db/connection.js';
import { NotFoundError } from '../errors.js';
import { getOrganization } from '../settings/organization.js';
import { labReportPdf, type ReportLine } from '../pdf/report.js';
import { ageAt, rangeForPatient, toResult } from './mappers.js';
import { amendmentsOf, resultRowsOfSample } from './repository.js';

/**
 * The lab report of one sample: the same bytes for the staff UI, the patient portal and
 * `lims report`. Only verified results are reported as final; an unverified value is never printed.
 */
export async function sampleReportPdf(db: Db, organizationId: number, sampleId: number): Promise<Buffer> {
  return (await sampleReport(db, organizationId, sampleId)).pdf;
}

/** The report and the sample code (for the file name). */
export async function sampleReport(
  db: Db,
  organizationId: number,
  sampleId: number,
): Promise<{ pdf: Buffer; sampleCode: string }> {
  const s = await db
    .selectFrom('samples as s')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .leftJoin('bills as b', 'b.id', 's.bill_id')
    .leftJoin('users as d', 'd.id', 'b.doctor_id')
    .select([
      's.id',
      's.sample_code',
      's.barcode',
      's.sample_type',
      's.status',
      's.collection_date',
      's.created_at',
      'p.first_name',
      'p.last_name',
      'p.patient_code',
      'p.gender',
      'p.date_of_birth',
      'p.phone',
      'd.first_name as doctor_first_name',
      'd.last_name as doctor_last_name',
    ])
    .where('s.organization_id', '=', organizationId)
    .where('s.id', '=', sampleId)
    .executeTakeFirst();
  if (!s) throw new NotFoundError('Sample', sampleId);
  const org = await getOrganization(db, organizationId);
  const tz = org.timezone;

  const ordered = await db
    .selectFrom('sample_tests as st')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(['t.id', 't.name', 't.unit', 't.normal_range', 't.reference_ranges'])
    .where('st.sample_id', '=', sampleId)
    .orderBy('st.position')
    .execute();
  const entered = (await resultRowsOfSample(db, organizationId, sampleId)).map((r) => toResult(r, tz));
  const amendments = await amendmentsOf(
    db,
    entered.filter((r) => r.amended).map((r) => r.id!),
  );
  const byTest = new Map(entered.map((r) => [r.test_id, r]));

  const lines: ReportLine[] = ordered.map((t) => {
    const r = byTest.get(t.id) ?? null;
    byTest.delete(t.id);
    const range = rangeForPatient(t, s, s.collection_date, tz)?.range ?? null;
    return r
      ? lineOf(r, amendments)
      : {
          test_name: t.name,
          state: 'awaited',
          value: null,
          unit: t.unit,
          normal_range: range,
          flag: null,
          critical: false,
          verified_by: null,
          verified_at: null,
          notes: null,
          amendments: [],
        };
  });
  for (const r of byTest.values()) lines.push(lineOf(r, amendments));

  const pdf = await labReportPdf({
    org,
    patient: {
      name: `${s.first_name} ${s.last_name}`,
      patient_number: s.patient_code,
      age: ageAt(s.date_of_birth, s.collection_date, tz),
      sex: s.gender,
      phone: s.phone,
    },
    doctor: s.doctor_first_name ? `Dr. ${s.doctor_first_name} ${s.doctor_last_name ?? ''}`.trim() : null,
    sample: {
      code: s.sample_code,
      barcode: s.barcode,
      type: s.sample_type,
      status: s.status,
      collected_at: s.collection_date,
    },
    reported_at: new Date().toISOString(),
    lines,
  });
  return { pdf, sampleCode: s.sample_code };
}

function lineOf(r: ReturnType<typeof toResult>, amendments: Awaited<ReturnType<typeof amendmentsOf>>): ReportLine {
  const verified = r.status === 'verified';
  return {
    test_name: r.test_name,
    // Entered but not verified (or sent back by a validator): the value is withheld until verified.
    state: verified ? 'final' : r.status === 'completed' ? 'unverified' : 'awaited',
    value: verified ? r.result_value : null,
    unit: r.unit,
    normal_range: r.normal_range,
    flag: verified ? r.flag : null,
    critical: verified && r.is_critical,
    verified_by: verified ? r.verified_by_name : null,
    verified_at: verified ? r.verified_at : null,
    notes: verified ? r.notes : null,
    amendments: verified
      ? (amendments.get(r.id!) ?? []).map((a) => ({
          at: a.amended_at,
          by: a.amended_by_name,
          old_value: a.old_value,
          old_unit: a.old_unit,
          reason: a.reason,
        }))
      : [],
  };
}
