import { loadavg } from 'node:os';
import { openDatabase } from '../src/core/db/connection.js';
import { systemActor } from '../src/core/context.js';
import { buildReport, resolvePeriod } from '../src/core/reports/service.js';
import { analytics, liveBoard } from '../src/core/analytics/service.js';
import { revenueAnalytics, revenueDaily } from '../src/core/payments/revenue.js';
import { ensureReportYear, type ReportYear } from './report-year.js';

/**
 * Issue 17's report targets: on a generated year of a busy lab (bench/report-year.ts), each report
 * and the Analytics figures at 30, 90 and 365 days, in-process on one connection (the service
 * call a request makes, without HTTP), p50/p95/p99 against p50 <= 100 ms and p99 <= 300 ms; beside
 * each, a bare SQL baseline of the same aggregation over the raw rows (one prepared statement on
 * better-sqlite3, no summaries) run in the same process in the same run.
 */

export const REPORT_TARGET = { p50: 100, p99: 300 };
export const REPORT_RANGES = [7, 30, 90, 365] as const;
/** Reports measured; the row listings (patient-register, dues, critical-values) every row for information, their first page against the target. */
export const REPORT_IDS = [
  'revenue-by-test',
  'workload-by-test',
  'tat-by-test',
  'daily-collection',
  'discounts',
  'referrals-by-doctor',
  'rejections',
  'critical-values',
  'dues',
  'patient-register',
] as const;
const LISTINGS = new Set(['patient-register', 'dues', 'critical-values']);
/** Screens measured beside the reports: Analytics, /revenue (its daily table and its analytics). */
const SCREENS = ['analytics', 'revenue-daily', 'revenue-analytics'] as const;
/** The Enhanced Dashboard's live board: today's figures, measured once (it has no range). */
const LIVE = 'live-board';

/** The raw aggregation each report stands for, as one statement over the rows (no summaries). */
const BARE: Record<string, string> = {
  'revenue-by-test': `SELECT i.item_type, i.test_id, MAX(i.name), SUM(i.qty), SUM(i.total_paise) FROM bill_items i JOIN bills b ON b.id = i.bill_id
    WHERE b.organization_id = ? AND b.cancelled_at IS NULL AND b.created_at >= ? AND b.created_at < ? GROUP BY i.item_type, i.test_id`,
  'workload-by-test': `SELECT st.test_id, COUNT(*), SUM(r.result_value IS NOT NULL), SUM(r.status = 'verified'), SUM(s.status = 'rejected')
    FROM sample_tests st JOIN samples s ON s.id = st.sample_id LEFT JOIN test_results r ON r.sample_id = st.sample_id AND r.test_id = st.test_id
    WHERE s.organization_id = ? AND COALESCE(s.collection_date, s.created_at) >= ? AND COALESCE(s.collection_date, s.created_at) < ? GROUP BY st.test_id`,
  'tat-by-test': `SELECT test_id, COUNT(*), AVG(m) FROM (SELECT r.test_id, (julianday(r.verified_at) - julianday(s.collection_date)) * 1440 AS m
    FROM test_results r JOIN samples s ON s.id = r.sample_id WHERE r.status = 'verified' AND s.organization_id = ?
    AND COALESCE(s.collection_date, s.created_at) >= ? AND COALESCE(s.collection_date, s.created_at) < ? ORDER BY r.test_id, m) GROUP BY test_id`,
  'daily-collection': `SELECT value_date, method, SUM(amount_paise) FROM payments WHERE organization_id = ? AND value_date >= substr(?, 1, 10) AND value_date < substr(?, 1, 10) GROUP BY 1, 2`,
  discounts: `SELECT b.created_by, COUNT(*), SUM(b.discount_amount_paise) FROM bills b WHERE b.organization_id = ? AND b.cancelled_at IS NULL AND b.created_at >= ? AND b.created_at < ? GROUP BY b.created_by`,
  'referrals-by-doctor': `SELECT b.doctor_id, COUNT(*), COUNT(DISTINCT b.patient_id), SUM(b.final_amount_paise) FROM bills b WHERE b.organization_id = ? AND b.cancelled_at IS NULL AND b.created_at >= ? AND b.created_at < ? GROUP BY b.doctor_id`,
  rejections: `SELECT rejection_reason, COUNT(*) FROM samples s WHERE s.organization_id = ? AND COALESCE(s.collection_date, s.created_at) >= ? AND COALESCE(s.collection_date, s.created_at) < ? GROUP BY 1`,
  'critical-values': `SELECT r.id, s.sample_code, r.result_value FROM test_results r JOIN samples s ON s.id = r.sample_id WHERE r.organization_id = ? AND r.is_critical = 1 AND r.entered_at >= ? AND r.entered_at < ?`,
  dues: `SELECT b.id, b.bill_number, p.patient_code, b.final_amount_paise - b.paid_paise FROM bills b JOIN patients p ON p.id = b.patient_id WHERE b.organization_id = ? AND b.cancelled_at IS NULL AND b.created_at >= ? AND b.created_at < ? AND b.final_amount_paise > b.paid_paise`,
  'patient-register': `SELECT id, patient_code, first_name, last_name, gender, date_of_birth, city, created_at FROM patients WHERE organization_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at, id`,
  analytics: `SELECT substr(collection_date, 1, 10), COUNT(*) FROM samples WHERE organization_id = ? AND collection_date >= ? AND collection_date < ? GROUP BY 1`,
  'revenue-daily': `SELECT substr(created_at, 1, 10), COUNT(*), COUNT(DISTINCT patient_id), SUM(discount_amount_paise), SUM(final_amount_paise) FROM bills
    WHERE organization_id = ? AND cancelled_at IS NULL AND created_at >= ? AND created_at < ? GROUP BY 1`,
  'revenue-analytics': `SELECT b.doctor_id, COUNT(*), SUM(b.final_amount_paise) FROM bills b WHERE b.organization_id = ? AND b.cancelled_at IS NULL AND b.created_at >= ? AND b.created_at < ? GROUP BY b.doctor_id`,
  [LIVE]: `SELECT r.id, s.sample_code FROM test_results r JOIN samples s ON s.id = r.sample_id WHERE r.organization_id = ? AND r.status = 'completed' AND r.entered_at >= ? AND r.entered_at < ? ORDER BY r.entered_at LIMIT 20`,
};

export interface ReportRow {
  id: string;
  days: number;
  rows: number;
  listing: boolean;
  /** The JSON view's first page (50 rows) of a listing; rows is then the period's row count. */
  firstPage: boolean;
  lims: { p50: number; p95: number; p99: number };
  bare: { p50: number; p95: number; p99: number };
  pass: boolean;
}
export interface ReportResults {
  year: ReportYear;
  rows: ReportRow[];
  load: string;
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
};
const stats = (xs: number[]) => ({ p50: q(xs, 0.5), p95: q(xs, 0.95), p99: q(xs, 0.99) });

export async function measureReports(
  dir: string,
  log: (line: string) => void,
  opts: { runs?: number; ids?: readonly string[] } = {},
): Promise<ReportResults> {
  const loadStart = loadavg()[0]!.toFixed(1);
  const year = await ensureReportYear(dir, log);
  const database = openDatabase(year.file);
  const runs = opts.runs ?? Number(process.env.BENCH_REPORT_RUNS ?? 9);
  const actor = systemActor(year.organizationId, 'bench');
  const out: ReportRow[] = [];
  try {
    const measure = async (
      id: string,
      days: number,
      args: unknown[],
      run: () => Promise<number>,
      firstPage = false,
    ) => {
      const bare = database.sqlite.prepare(BARE[id]!);
      const limsMs: number[] = [];
      const bareMs: number[] = [];
      let rows = 0;
      // One warm-up each, then alternate so both see the same machine.
      for (let k = 0; k <= runs; k++) {
        let t = performance.now();
        rows = await run();
        if (k > 0) limsMs.push(performance.now() - t);
        t = performance.now();
        bare.all(...args);
        if (k > 0) bareMs.push(performance.now() - t);
      }
      const lims = stats(limsMs);
      const row: ReportRow = {
        id,
        days,
        rows,
        listing: LISTINGS.has(id),
        firstPage,
        lims,
        bare: stats(bareMs),
        pass: lims.p50 <= REPORT_TARGET.p50 && lims.p99 <= REPORT_TARGET.p99,
      };
      out.push(row);
      log(
        `  ${id}${firstPage ? ' page 1' : ''} ${days} d: p50 ${row.lims.p50.toFixed(1)} ms, p99 ${row.lims.p99.toFixed(1)}, bare p50 ${row.bare.p50.toFixed(1)} ms (${rows} rows)${forInformation(row) ? '  (for information)' : row.pass ? '' : '  MISSES'}`,
      );
    };
    for (const days of REPORT_RANGES) {
      const period = await resolvePeriod(database.db, year.organizationId, { range: days });
      const args = [year.organizationId, period.window.fromUtc, period.window.toUtc];
      const dates = { from: period.from, to: period.to };
      for (const id of opts.ids ?? REPORT_IDS) {
        await measure(id, days, args, async () => (await buildReport(database.db, actor, id, period)).rows.length);
        // What the screen asks for: the first page of 50 rows, with the whole period's totals.
        if (LISTINGS.has(id))
          await measure(
            id,
            days,
            args,
            async () => (await buildReport(database.db, actor, id, period, { page: 1, limit: 50 })).row_count,
            true,
          );
      }
      for (const id of SCREENS)
        await measure(id, days, args, async () => {
          if (id === 'analytics')
            return (await analytics(database.db, year.organizationId, { days } as never)).daily.length;
          if (id === 'revenue-daily') return (await revenueDaily(database.db, year.organizationId, dates)).days.length;
          return (await revenueAnalytics(database.db, year.organizationId, dates)).by_category.length;
        });
    }
    const today = await resolvePeriod(database.db, year.organizationId, { range: 1 });
    await measure(LIVE, 1, [year.organizationId, today.window.fromUtc, today.window.toUtc], async () => {
      const b = await liveBoard(database.db, actor);
      return (
        b.awaiting_verification.items.length + b.critical_unacknowledged.items.length + b.tat_breaches.items.length
      );
    });
  } finally {
    await database.close();
  }
  return { year, rows: out, load: `${loadStart} / ${loadavg()[0]!.toFixed(1)}` };
}

export function renderReports(r: ReportResults, startedAt: Date): string {
  const f = (n: number) => n.toFixed(1);
  const lines = [
    REPORTS_START,
    `## Reports on a year of a busy lab (issue 17), ${startedAt.toISOString()}`,
    '',
    `Data: ${r.year.visits.toLocaleString('en-IN')} visits (bills, samples) and ${r.year.results.toLocaleString('en-IN')} results over 365 days (bench/report-year.ts), SQLite, in-process, one connection, ${process.env.BENCH_REPORT_RUNS ?? 9} runs each after one warm-up. Load average (1 min) at start / end: ${r.load}. Target p50 <= ${REPORT_TARGET.p50} ms, p99 <= ${REPORT_TARGET.p99} ms. Bare: one prepared statement of the same aggregation over the raw rows, in the same run. p95 and p99 are nearest-rank over the runs (with few runs, the slowest). A listing (Patient Register, Dues, Critical Values) is measured twice: every row (the downloads; for information) and the first page of 50 the screen asks for (rows = the period's row count; its bare is still the whole listing's query). analytics, revenue-daily and revenue-analytics are the /analytics and /revenue screens' calls; live-board is the Enhanced Dashboard's.`,
    '',
    '| report | days | rows | p50 ms | p95 ms | p99 ms | bare p50 ms | lims / bare | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...r.rows.map(
      (x) =>
        `| ${x.id}${x.firstPage ? ' (first page of 50)' : x.listing ? ' (listing, every row)' : ''} | ${x.id === LIVE ? 'today' : x.days} | ${x.rows} | ${f(x.lims.p50)} | ${f(x.lims.p95)} | ${f(x.lims.p99)} | ${f(x.bare.p50)} | ${(x.lims.p50 / Math.max(x.bare.p50, 0.01)).toFixed(2)} | ${targetCell(x)} |`,
    ),
    '',
    REPORTS_END,
  ];
  return lines.join('\n');
}

/** A listing's every row (the downloads) has no target: its time grows with the period's rows. */
const forInformation = (x: ReportRow) => x.listing && !x.firstPage;
const targetCell = (x: ReportRow) => (forInformation(x) ? 'for information' : x.pass ? 'pass' : 'MISS');

export const REPORTS_START = '<!-- reports:start -->';
export const REPORTS_END = '<!-- reports:end -->';
/** Every report, screen and listing's first page meets the target (a listing's every row is for information). */
export const reportsPass = (r: ReportResults) => r.rows.every((x) => x.pass || forInformation(x));
