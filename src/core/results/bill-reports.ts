import type { Db } from '../db/connection.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { BillReport } from '../../shared/schemas/results.js';
import { findBillRow } from '../billing/repository.js';
import { testsOnSamplesOfBill } from '../samples/repository.js';
import { labSettings } from '../settings/service.js';
import { reportHead } from './entry-repository.js';
import { assertReleasable } from './report.js';
import { assertInScope, type ResultScope } from './scope.js';

/**
 * The reports of a bill, one per sample, for the front desk that prints and hands them over: the
 * tests on each and whether the report can leave the lab now (released, not held), never a value.
 */
export async function billReports(
  db: Db,
  organizationId: number,
  billId: number,
  scope: ResultScope,
): Promise<BillReport[]> {
  const bill = await findBillRow(db, organizationId, billId);
  if (!bill) throw new NotFoundError('Bill', billId);
  await assertInScope(db, scope, bill.patient_id, 'Bill', billId);
  const { holdReportsUntilPaid } = await labSettings(db, organizationId);
  const bySample = new Map<number, BillReport>();
  const rejected = new Map<number, string>();
  for (const r of await testsOnSamplesOfBill(db, organizationId, billId)) {
    const seen = bySample.get(r.id);
    if (seen) {
      seen.tests.push(r.test_name);
      continue;
    }
    bySample.set(r.id, {
      sample_id: r.id,
      sample_code: r.sample_code,
      sample_type: r.sample_type,
      container: r.container,
      status: r.status,
      tests: [r.test_name],
      reported_at: r.reported_at,
      printable: false,
      reason: null,
      report_print_count: Number(r.report_print_count),
    });
    // A rejected tube never gets a report: say so, and where its tests went, not "awaited".
    if (r.status === 'rejected')
      rejected.set(
        r.id,
        `Sample ${r.sample_code} was rejected${r.rejection_reason ? ` (${r.rejection_reason})` : ''}: no report; ${
          r.recollected_as_code ? `recollected as ${r.recollected_as_code}` : 'recollect it'
        }`,
      );
  }
  for (const report of bySample.values()) {
    const why = rejected.get(report.sample_id);
    if (why) {
      report.reason = why;
      continue;
    }
    const head = (await reportHead(db, organizationId, report.sample_id))!;
    try {
      // The desk's rule for everyone here: a bill's report is handed over once released.
      await assertReleasable(db, head, holdReportsUntilPaid, true);
      report.printable = true;
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      report.reason = err.message;
    }
  }
  return [...bySample.values()];
}
