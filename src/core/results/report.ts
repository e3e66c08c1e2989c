import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso, systemActor } from '../context.js';
import { announce } from '../events.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ReportStatus } from '../../shared/schemas/results.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { findSampleRow, updateSampleRow } from '../samples/repository.js';
import { formatInr } from '../../shared/money.js';
import { labReportPdf } from '../pdf/report.js';
import { ageTextAt } from './mappers.js';
import { assertInScope, type ResultScope } from './scope.js';
import { countReportPrint, reportHead, uncalledCriticals } from './entry-repository.js';
import { verificationUrl } from '../lab-reports/service.js';
import { reportSettingsFor } from '../printing/service.js';
import { reportLinesOfSample } from './report-lines.js';
import { doctorTitledName } from '../../shared/person-name.js';

export type Head = NonNullable<Awaited<ReturnType<typeof reportHead>>>;

export function patientOnReport(s: Head, tz: string) {
  return {
    name: `${s.first_name} ${s.last_name}`,
    patient_number: s.patient_code,
    // Months under two years, days under a month: an infant is never "0 years" on her report.
    age: ageTextAt(s.date_of_birth, s.collection_date, tz),
    sex: s.gender,
    phone: s.phone,
  };
}

export function doctorOnReport(s: Head): string | null {
  return s.doctor_first_name
    ? doctorTitledName({ title: s.doctor_title, first_name: s.doctor_first_name, last_name: s.doctor_last_name ?? '' })
    : null;
}

/**
 * Whether the report may leave the lab: never with a critical value nobody has telephoned; and,
 * when the lab holds reports until paid, not while its bill has money due unless staff released it.
 */
export async function assertReleasable(
  db: Db,
  head: Head,
  holdUntilPaid: boolean,
  releasedOnly = false,
  /** False where a report is pushed to a receiver rather than handed over (see verifiedReport). */
  accountHolds = true,
): Promise<void> {
  // The desk hands over finished reports only: an interim one is for those who see results.
  if (releasedOnly && !head.reported_at)
    throw new ConflictError(
      `The report of sample ${head.sample_code} is not released yet: its results are awaited or not verified`,
      'REPORT_NOT_RELEASED',
    );
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
  // Others may hold it too (a collection centre on hold); a release by staff with a reason overrides.
  if (accountHolds && !head.released_at)
    await announce(db, systemActor(head.organization_id, 'report'), 'report.releasing', {
      sampleId: head.id,
      sampleCode: head.sample_code,
    });
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
  await assertReleasable(db, s, settingsOf(org).holdReportsUntilPaid, scope.releasedOnly);
  const tz = org.timezone;

  const lines = await reportLinesOfSample(db, organizationId, s, tz);
  // A released report prints with the settings kept at its release; an interim one with today's.
  const print = await reportSettingsFor(db, organizationId, s.reported_at ? [sampleId] : []);
  const pdf = await labReportPdf({
    letterhead: print.letterhead,
    patient: patientOnReport(s, tz),
    doctor: doctorOnReport(s),
    scope: { kind: 'sample' },
    samples: [
      {
        code: s.sample_code,
        barcode: s.barcode,
        type: s.sample_type,
        collected_at: s.collection_date,
        condition: s.receipt_condition,
        reported_at: s.reported_at,
        verify_url: await verificationUrl(db, organizationId, sampleId, verifyBase),
      },
    ],
    templates: print.templates,
    print_number: await countReportPrint(db, sampleId),
    lines,
    pending: [],
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
    await assertReleasable(db, s, settingsOf(org).holdReportsUntilPaid, scope.releasedOnly);
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
    await announce(trx, actor, 'report.hold_released', { sampleId });
  });
}
