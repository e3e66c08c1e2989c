import type { Db } from '../db/connection.js';
import type { ReportLine } from '../pdf/report-types.js';
import { departmentOf } from '../../shared/schemas/lab-reports.js';
import { testDetails } from '../lab-reports/verification-repository.js';
import { rangeForPatient, toResult } from './mappers.js';
import { resultRowsOfSample } from './repository.js';
import { amendmentsOf } from './summary-repository.js';
import { orderedTests, type reportHead } from './entry-repository.js';

type Head = NonNullable<Awaited<ReturnType<typeof reportHead>>>;

/**
 * The report lines of one sample: each ordered test with its verified value, or with none while it
 * is awaited or unverified (an unverified value is never printed), and any result of a test no
 * longer ordered.
 */
export async function reportLinesOfSample(db: Db, organizationId: number, s: Head, tz: string): Promise<ReportLine[]> {
  const ordered = await orderedTests(db, s.id);
  const entered = (await resultRowsOfSample(db, organizationId, s.id)).map((r) => toResult(r, tz));
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
  return lines;
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
