import type { Db } from '../db/connection.js';
import { NotFoundError } from '../errors.js';
import { jsonList } from '../catalogue/service.js';
import { organizationTimezone } from '../settings/service.js';
import { localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type {
  ResultListQuery,
  ResultPage,
  ResultSheet,
  ResultSummary,
  TestResult,
} from '../../shared/schemas/results.js';
import { ageAt, ageTextAt, rangeForPatient, toResult } from './mappers.js';
import { callsOf, orderedTests, sampleForEntry } from './entry-repository.js';
import { assertInScope, type ResultScope } from './scope.js';
import { qcStatusesOf, qcTestStatus } from '../qc/service.js';
import { nowIso } from '../context.js';
import { findResultRow, OPEN_FOR_ENTRY, pageResults, resultRowsOfSample } from './repository.js';
import { amendmentsOf, resultCounts } from './summary-repository.js';

/** The release autoverification uses: the same path as a person's verification. */
export { releaseByRules } from './release.js';

export async function listResults(
  db: Db,
  organizationId: number,
  q: ResultListQuery,
  scope: ResultScope = {},
): Promise<ResultPage> {
  const { rows, total } = await pageResults(db, organizationId, { ...q, doctor_id: scope.doctorId });
  const tz = await organizationTimezone(db, organizationId);
  const calls = await callsOf(
    db,
    rows.flatMap((r) => (r.is_critical && r.id !== null ? [r.id] : [])),
  );
  const results = rows.map((r) => toResult(r, tz, undefined, r.id === null ? null : calls.get(r.id)));
  return {
    results: await withQc(db, organizationId, results),
    ...pageEnvelope(total, q.page, q.limit),
  };
}

export async function getResult(
  db: Db,
  organizationId: number,
  id: number,
  scope: ResultScope = {},
): Promise<TestResult> {
  const row = await findResultRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Result', id);
  await assertInScope(db, scope, row.patient_id, 'Result', id);
  const result = toResult(
    row,
    await organizationTimezone(db, organizationId),
    (await amendmentsOf(db, [id])).get(id) ?? [],
    (await callsOf(db, [id])).get(id),
  );
  return (await withQc(db, organizationId, [result]))[0]!;
}

/** Entered results awaiting verification carry the QC state they will be judged by (their entry, their machine). */
async function withQc(db: Db, organizationId: number, results: TestResult[]): Promise<TestResult[]> {
  const waiting = results.filter((r) => r.status === 'completed' && r.entered_at);
  const states = await qcStatusesOf(
    db,
    organizationId,
    waiting.map((r) => ({ testId: r.test_id, testName: r.test_name, at: r.entered_at!, equipmentId: r.equipment_id })),
  );
  const byKey = new Map(waiting.map((r, i) => [r.key, states[i]!]));
  return results.map((r) => (byKey.has(r.key) ? { ...r, qc: byKey.get(r.key)! } : r));
}

export async function resultSummary(db: Db, organizationId: number): Promise<ResultSummary> {
  const tz = await organizationTimezone(db, organizationId);
  const c = await resultCounts(db, organizationId, startOfLocalDayUtc(tz, localDate(tz)).toISOString());
  const pending = c.awaiting + c.pendingStored;
  return {
    total: c.entered + c.awaiting,
    completed: c.completed,
    verified: c.verified,
    pending,
    rejected: c.rejected,
    abnormal: c.abnormal,
    critical: c.critical,
    critical_uncalled: c.criticalUncalled,
    awaiting_validation: c.completed,
    pending_validation: c.completed - c.reviewRequired,
    review_required: c.reviewRequired,
    validated_today: c.validatedToday,
  };
}

/** The entry sheet of one sample: each ordered test with its unit, the range for this patient and its result. */
export async function resultSheet(
  db: Db,
  organizationId: number,
  sampleId: number,
  scope: ResultScope = {},
): Promise<ResultSheet> {
  const s = await sampleForEntry(db, organizationId, sampleId);
  if (!s) throw new NotFoundError('Sample', sampleId);
  await assertInScope(db, scope, s.patient_id, 'Sample', sampleId);
  const tz = await organizationTimezone(db, organizationId);
  const ordered = await orderedTests(db, sampleId);
  const rows = await resultRowsOfSample(db, organizationId, sampleId);
  const calls = await callsOf(
    db,
    rows.map((r) => r.id!),
  );
  const entered = await withQc(
    db,
    organizationId,
    rows.map((r) => toResult(r, tz, undefined, calls.get(r.id!))),
  );
  const results = new Map(entered.map((r) => [r.test_id, r]));

  const now = nowIso();
  const qcNow = (testId: number) => qcTestStatus(db, organizationId, testId, { at: now, equipmentId: null });
  const tests = [];
  for (const t of ordered) {
    const result = results.get(t.id) ?? null;
    results.delete(t.id);
    const range = rangeForPatient(t, s, s.collection_date, tz);
    tests.push({
      test_id: t.id,
      test_name: t.name,
      test_code: t.code,
      unit: result?.unit ?? t.unit,
      normal_range: result?.normal_range ?? range?.range ?? null,
      result_type: t.result_type,
      result_template: t.result_template,
      choices: jsonList(t.choices),
      decimals: t.decimals,
      formula: t.formula,
      result,
      qc: await qcNow(t.id),
    });
  }
  // Results of tests no longer on the order stay visible (they were entered; they are not lost).
  for (const r of results.values())
    tests.push({
      test_id: r.test_id,
      test_name: r.test_name,
      test_code: r.test_code,
      unit: r.unit,
      normal_range: r.normal_range,
      result_type: r.structured ? 'structured' : 'text',
      result_template: r.structured?.template ?? null,
      choices: [],
      decimals: null,
      formula: null,
      result: r,
      qc: await qcNow(r.test_id),
    });
  return {
    sample: {
      id: s.id,
      sample_number: s.sample_code,
      barcode: s.barcode,
      status: s.status,
      sample_type: s.sample_type,
      priority: s.priority,
      collection_date: s.collection_date,
      patient_id: s.patient_id,
      first_name: s.first_name,
      last_name: s.last_name,
      patient_number: s.patient_code,
      gender: s.gender,
      age: ageAt(s.date_of_birth, s.collection_date, tz),
      age_text: ageTextAt(s.date_of_birth, s.collection_date, tz),
    },
    can_enter: (OPEN_FOR_ENTRY as readonly string[]).includes(s.status),
    all_verified: ordered.length > 0 && tests.every((t) => t.result?.status === 'verified'),
    tests,
  };
}

export { type ResultScope, assertInScope, doctorLimit, resultScope } from './scope.js';
export { enterResult } from './entry.js';
export { checkedValue } from './evaluate.js';
export { toResult } from './mappers.js';
export { assertReleasable, reportStatus, sampleReport } from './report.js';
export { visitReport } from './visit-report.js';
export { billReports } from './bill-reports.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { insertHistoricalResult, type HistoricalResult } from './history.js';
