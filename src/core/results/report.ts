import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ReportStatus } from '../../shared/schemas/results.js';
import { getOrganization, settingsOf } from '../settings/organization.js';
import { findSampleRow, updateSampleRow } from '../samples/repository.js';
import { formatInr } from '../../shared/money.js';
import { labReportPdf, type ReportLine } from '../pdf/report.js';
import { ageAt, rangeForPatient, toResult } from './mappers.js';
import { amendmentsOf, resultRowsOfSample } from './repository.js';
import { assertInScope, type ResultScope } from './scope.js';
import { countReportPrint, orderedTests, reportHead, uncalledCriticals } from './entry-repository.js';
import { departmentOf } from '../../shared/schemas/lab-reports.js';
import { reportSettingsRow, templatesForPdf, verificationUrl } from '../lab-reports/service.js';
import { testDetails } from '../lab-reports/repository.js';

type Head = NonNullable<Awaited<ReturnType<typeof reportHead>>>;

/**
 * Whether the report may leave the lab: never with a critical value nobody has telephoned; and,
 * when the lab holds reports until paid, not while its bill has money due unless staff released it.
 */
export async function assertReleasable(db: Db, head: Head, holdUntilPaid: boolean): Promise<void> {
  const uncalled = await uncalledCriticals(db, head.id);
  if (uncalled.length)
    throw new ConflictError(
      `The report of sample ${head.sample_code} cannot be released: the critical value${uncalled.length > 1 ? 's' : ''} ${uncalled
        .map((c) => `${c.name} ${c.result_value ?? ''}${c.unit ? ` ${c.unit}` : ''}`.trim())
        .join(', ')} must be telephoned and the call logged first`,
      'CRITICAL_NOT_CALLED',
    );
  const due = head.bill_cancelled_at ? 0 : (head.final_amount_paise ?? 0) - (head.paid_paise ?? 0);
  if (holdUntilPaid && due > 0 && !head.released_at)
    throw new ConflictError(
      `The report of sample ${head.sample_code} is held: bill ${head.bill_number} has ${formatInr(due)} due. Collect the payment, or release the report with a reason.`,
      'REPORT_HELD_UNPAID',
    );
}

/**
 * The lab report of one sample: the same bytes for the staff UI, the patient portal and
 * `lims report`, apart from the print number. Only verified results are reported as final; an
 * unverified value is never printed. Every print or download is counted.
 */
export async function sampleReportPdf(
  db: Db,
  organizationId: number,
  sampleId: number,
  verifyBase: string | null = null,
): Promise<Buffer> {
  return (await sampleReport(db, organizationId, sampleId, {}, verifyBase)).pdf;
}

/** The report and the sample code (for the file name). */
export async function sampleReport(
  db: Db,
  organizationId: number,
  sampleId: number,
  scope: ResultScope = {},
  /** The server's own address (from the request) for the QR code, when the lab has not set its public address. */
  verifyBase: string | null = null,
): Promise<{ pdf: Buffer; sampleCode: string }> {
  const s = await reportHead(db, organizationId, sampleId);
  if (!s) throw new NotFoundError('Sample', sampleId);
  await assertInScope(db, scope, s.patient_id, 'Sample', sampleId);
  const org = await getOrganization(db, organizationId);
  await assertReleasable(db, s, settingsOf(org).holdReportsUntilPaid);
  const tz = org.timezone;

  const ordered = await orderedTests(db, sampleId);
  const entered = (await resultRowsOfSample(db, organizationId, sampleId)).map((r) => toResult(r, tz));
  const amendments = await amendmentsOf(
    db,
    entered.filter((r) => r.amended).map((r) => r.id!),
  );
  const byTest = new Map(entered.map((r) => [r.test_id, r]));

  const details = new Map(
    (await testDetails(db, [...new Set([...ordered.map((t) => t.id), ...entered.map((r) => r.test_id)])])).map((d) => [
      d.id,
      d,
    ]),
  );
  const place = (testId: number) => {
    const d = details.get(testId);
    return { department: departmentOf(d?.category), category: d?.category ?? null, method: d?.method ?? null };
  };
  const lines: ReportLine[] = ordered.map((t) => {
    const r = byTest.get(t.id) ?? null;
    byTest.delete(t.id);
    const range = rangeForPatient(t, s, s.collection_date, tz)?.range ?? null;
    return r
      ? { ...lineOf(r, amendments), ...place(t.id) }
      : {
          ...place(t.id),
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
  for (const r of byTest.values()) lines.push({ ...lineOf(r, amendments), ...place(r.test_id) });
  const settings = await reportSettingsRow(db, organizationId);
  const templates = await templatesForPdf(db, organizationId);

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
      condition: s.receipt_condition,
    },
    accreditation: settings?.accreditation_number
      ? [settings.accreditation_body, `Certificate No. ${settings.accreditation_number}`].filter(Boolean).join(' · ')
      : null,
    templates,
    verify_url: await verificationUrl(db, organizationId, sampleId, verifyBase),
    reported_at: s.reported_at,
    print_number: await countReportPrint(db, sampleId),
    lines,
  });
  return { pdf, sampleCode: s.sample_code };
}

/** Whether a sample's report may be printed now, and if not why (the screens ask before opening it). */
export async function reportStatus(
  db: Db,
  organizationId: number,
  sampleId: number,
  scope: ResultScope = {},
): Promise<ReportStatus> {
  const s = await reportHead(db, organizationId, sampleId);
  if (!s) throw new NotFoundError('Sample', sampleId);
  await assertInScope(db, scope, s.patient_id, 'Sample', sampleId);
  const org = await getOrganization(db, organizationId);
  try {
    await assertReleasable(db, s, settingsOf(org).holdReportsUntilPaid);
    return { releasable: true, code: null, message: null, reported_at: s.reported_at };
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    return { releasable: false, code: err.code, message: err.message, reported_at: s.reported_at };
  }
}

/** Staff release a held report (bill not paid yet) with a reason; kept on the sample and in the audit trail. */
export async function releaseReport(db: Db, actor: Actor, sampleId: number, reason: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const sample = await findSampleRow(trx, actor.organizationId, { id: sampleId });
    if (!sample) throw new NotFoundError('Sample', sampleId);
    const now = nowIso();
    await updateSampleRow(trx, sampleId, {
      release_reason: reason,
      released_by: actor.userId,
      released_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'sample',
      entityId: sampleId,
      newValues: { report_released: true, release_reason: reason },
    });
  });
}

function lineOf(
  r: ReturnType<typeof toResult>,
  amendments: Awaited<ReturnType<typeof amendmentsOf>>,
): Omit<ReportLine, 'department' | 'category' | 'method'> {
  const verified = r.status === 'verified';
  return {
    test_name: r.test_name,
    // Entered but not verified (or sent back by a validator): the value is withheld until verified.
    state: verified ? 'final' : r.status === 'completed' ? 'unverified' : 'awaited',
    // A panel's parameters are printed as a table under the line; its one-line summary would repeat them.
    value: verified ? (r.structured?.values ? 'See below' : r.result_value) : null,
    structured: verified ? r.structured : null,
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
