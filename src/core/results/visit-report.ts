import type { Db } from '../db/connection.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { sampleIdsOfBill } from '../samples/repository.js';
import { getBill } from '../billing/service.js';
import { labReportPdf, type PendingTest, type ReportLine } from '../pdf/report.js';
import type { ReportSample } from '../pdf/report-types.js';
import { verificationUrl } from '../lab-reports/service.js';
import { reportSettingsFor } from '../printing/service.js';
import { countReportPrint, orderedTests, reportHead } from './entry-repository.js';
import { assertInScope, type ResultScope } from './scope.js';
import { assertReleasable, doctorOnReport, patientOnReport, type Head } from './report.js';
import { reportLinesOfSample } from './report-lines.js';

/**
 * The report of a visit (a bill): one document with the released results of all its samples,
 * department by department, and the tests still in progress named as pending rather than left
 * out. The per-sample reports stay as they are.
 */
export async function visitReport(
  db: Db,
  organizationId: number,
  billId: number,
  scope: ResultScope = {},
  /** The server's own address (from the request) for the QR codes, when the lab has not set its public address. */
  verifyBase: string | null = null,
): Promise<{ pdf: Buffer; billNumber: string }> {
  const bill = await getBill(db, organizationId, billId);
  await assertInScope(db, scope, bill.patient_id, 'Bill', billId);
  const tubes = await sampleIdsOfBill(db, organizationId, billId);
  if (!tubes.length)
    throw new ConflictError(`Bill ${bill.bill_number} has no laboratory tests to report`, 'NO_TESTS_ON_BILL');
  const org = await getOrganization(db, organizationId);
  const tz = org.timezone;
  const heads: Head[] = [];
  for (const t of tubes) {
    const head = await reportHead(db, organizationId, t.id);
    if (head) heads.push(head);
  }
  const lines: ReportLine[] = [];
  const pending: PendingTest[] = [];
  const rejectedTests: string[] = [];
  const samples: ReportSample[] = [];
  const printed: number[] = [];
  for (const h of heads) {
    if (h.status === 'rejected') {
      rejectedTests.push(...(await orderedTests(db, h.id)).map((t) => t.name));
      continue;
    }
    const mine = await reportLinesOfSample(db, organizationId, h, tz);
    // The desk (print_reports without view_results) hands over released samples only: a tube whose
    // report is not released yet is named as pending, its verified values not printed.
    const held = scope.releasedOnly === true && !h.reported_at;
    const final = held ? [] : mine.filter((l) => l.state === 'final');
    lines.push(...final);
    for (const l of mine)
      if (l.state !== 'final' || held)
        pending.push({ test_name: l.test_name, why: l.state === 'final' ? 'unverified' : l.state });
    // What the visit's report prints leaves the lab on the same terms as its sample's own report;
    // a tube with nothing released yet (not drawn, not verified) holds nothing back.
    if (final.length) {
      await assertReleasable(db, h, settingsOf(org).holdReportsUntilPaid);
      printed.push(h.id);
    }
    samples.push({
      code: h.sample_code,
      barcode: h.barcode,
      type: h.sample_type,
      collected_at: h.collection_date,
      condition: h.receipt_condition,
      reported_at: h.reported_at,
      verify_url: final.length ? await verificationUrl(db, organizationId, h.id, verifyBase) : null,
    });
  }
  // A rejected tube's tests are pending unless a new tube of the visit already carries them.
  const onOtherTubes = new Set([...lines, ...pending].map((l) => l.test_name));
  for (const name of new Set(rejectedTests))
    if (!onOtherTubes.has(name)) pending.push({ test_name: name, why: 'rejected' });
  if (!heads.length) throw new NotFoundError('Bill', billId);

  // The visit's report takes the settings kept at the latest release among its samples.
  const print = await reportSettingsFor(
    db,
    organizationId,
    heads.filter((h) => h.reported_at).map((h) => h.id),
  );
  let printNumber = 1;
  for (const id of printed) printNumber = Math.max(printNumber, await countReportPrint(db, id));
  const first = heads[0]!;
  const pdf = await labReportPdf({
    letterhead: print.letterhead,
    patient: patientOnReport(first, tz),
    doctor: doctorOnReport(first),
    scope: { kind: 'visit', bill_number: bill.bill_number },
    samples,
    templates: print.templates,
    print_number: printNumber,
    lines,
    pending,
  });
  return { pdf, billNumber: bill.bill_number };
}
