import type { Db } from '../db/connection.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { parseRange, numericValue, type ParsedRange } from '../../shared/flags.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { findSampleRow } from '../samples/repository.js';
import { findBillRow } from '../billing/repository.js';
import { testCodings } from '../catalogue/repository.js';
import { reportHead } from '../results/entry-repository.js';
import { resultRowsOfSample } from '../results/repository.js';
import { toResult, assertInScope, type ResultScope, assertReleasable } from '../results/service.js';
import { structuredLines } from './structured.js';

/**
 * A verified lab report as the HL7 and FHIR messages carry it ("Out"): the lab, the
 * patient, the sample and each verified result with the codes, unit, range and flag the lab report
 * prints. Built from the same rows as the report PDF; nothing unverified is ever in it.
 */

export interface OutLine {
  result_id: number;
  test_id: number;
  /** The lab's own test code and name. */
  code: string;
  name: string;
  loinc: string | null;
  value: string;
  /** The value as a number when it is one (NM / valueQuantity), else null (ST / valueString). */
  numeric: number | null;
  unit: string | null;
  range_text: string | null;
  range: ParsedRange | null;
  flag: string | null;
  critical: boolean;
  /** A verified result changed after verification with a reason (HL7 C, FHIR corrected). */
  amended: boolean;
  notes: string | null;
  verified_at: string | null;
  verified_by: string | null;
  /** A structured result's parameter (its key), when the result goes out as its parameters. */
  part?: string;
}

export interface OutReport {
  lab: { id: number; name: string; phone: string | null };
  patient: {
    code: string;
    first_name: string;
    last_name: string;
    gender: string | null;
    date_of_birth: string | null;
    phone: string | null;
  };
  sample: {
    id: number;
    code: string;
    barcode: string | null;
    type: string | null;
    collected_at: string | null;
    reported_at: string;
    bill_number: string | null;
    payer_id: number | null;
  };
  doctor: string | null;
  lines: OutLine[];
}

/**
 * The report of one sample, or why not: 404 for another lab's sample or another doctor's patient,
 * 409 while it is not verified (every ordered test verified: the sample completed) and, with
 * `releaseRules`, while the lab report itself could not be released (an uncalled critical value;
 * a bill with money due when the lab holds reports until paid). Pushing to a receiver passes
 * holdUntilPaid false: the hold is about handing a report to an unpaid walk-in patient, and a
 * payer-billed report is unpaid until the payer's invoice is settled (docs/decisions.md).
 */
export async function verifiedReport(
  db: Db,
  organizationId: number,
  sampleId: number,
  opts: { scope?: ResultScope; holdUntilPaid?: boolean } = {},
): Promise<OutReport> {
  const head = await reportHead(db, organizationId, sampleId);
  if (!head) throw new NotFoundError('Sample', sampleId);
  await assertInScope(db, opts.scope ?? {}, head.patient_id, 'Sample', sampleId);
  if (head.status !== 'completed' || !head.reported_at)
    throw new ConflictError(
      `Sample ${head.sample_code} has no verified report yet: every ordered test must be verified first`,
      'REPORT_NOT_VERIFIED',
    );
  const org = await getOrganization(db, organizationId);
  await assertReleasable(
    db,
    head,
    opts.holdUntilPaid ?? settingsOf(org).holdReportsUntilPaid,
    false,
    opts.holdUntilPaid !== false,
  );

  const sample = await findSampleRow(db, organizationId, { id: sampleId });
  const bill = sample?.bill_id ? await findBillRow(db, organizationId, sample.bill_id) : undefined;
  const results = (await resultRowsOfSample(db, organizationId, sampleId))
    .map((r) => toResult(r, org.timezone))
    .filter((r) => r.status === 'verified' && r.result_value !== null && r.id !== null);
  const codings = await testCodings(
    db,
    organizationId,
    results.map((r) => r.test_id),
  );
  return {
    lab: { id: org.id, name: org.name, phone: org.phone },
    patient: {
      code: head.patient_code,
      first_name: head.first_name,
      last_name: head.last_name,
      gender: head.gender,
      date_of_birth: head.date_of_birth,
      phone: head.phone,
    },
    sample: {
      id: head.id,
      code: head.sample_code,
      barcode: head.barcode,
      type: head.sample_type,
      collected_at: head.collection_date,
      reported_at: head.reported_at,
      bill_number: head.bill_number,
      payer_id: bill?.payer_id ?? null,
    },
    doctor: head.doctor_first_name ? `${head.doctor_first_name} ${head.doctor_last_name ?? ''}`.trim() : null,
    lines: results.flatMap((r) => {
      const line: OutLine = {
        result_id: r.id!,
        test_id: r.test_id,
        code: codings.get(r.test_id)?.code ?? r.test_code ?? String(r.test_id),
        name: r.test_name,
        loinc: codings.get(r.test_id)?.loinc_code ?? null,
        value: r.result_value!,
        numeric: numericValue(r.result_value!),
        unit: r.unit,
        range_text: r.normal_range,
        range: parseRange(r.normal_range),
        flag: r.flag,
        critical: r.is_critical,
        amended: r.amended,
        notes: r.notes,
        verified_at: r.verified_at,
        verified_by: r.verified_by_name,
      };
      return r.structured ? structuredLines(line, r.structured) : [line];
    }),
  };
}
