import type { LatencyResult, ThroughputResult } from './load.js';
import type { BillingResult } from './billing.js';
import type { TransferEngineResult } from './transfer.js';
import { renderTransfer, transferPasses, transferSummary } from './transfer-report.js';

/** Targets of the issue ("Done means"): throughput ratio to the bare stack, latency on one connection. */
export const TARGETS = { ratio: 0.7, postgresRatio: 0.6, p50: 5, p99: 25, billPdfMs: 50 } as const;

/** The PostgreSQL run. */
export interface PostgresReport {
  version: string;
  patients: number;
  copiedSeconds: number | null;
  throughput: { connections: number; bare: ThroughputResult; lims: ThroughputResult };
  latency: LatencyRow[];
  /** GET patient by id: one lims process at all the connections, then two sharing them, on one database. */
  scaleOut: { one: ThroughputResult; two: ThroughputResult; cores: number };
}

export interface LatencyRow {
  name: string;
  path: string;
  /** What the endpoint answered (e.g. the total of a search), for context. */
  note: string;
  result: LatencyResult;
  /** Checked against TARGETS.p50 / p99; false rows are for information. */
  target: boolean;
}

export interface Report {
  startedAt: Date;
  machine: Record<string, string>;
  /** Set when other work loaded the machine during the run (load average above the CPU count). */
  busy: string | null;
  dataset: { patients: number; file: string; builtSeconds: number | null };
  throughput: {
    connections: number;
    bare: ThroughputResult;
    lims: ThroughputResult;
    /** Each pair of freshly started servers; bare and lims above pool them. */
    pairs: { bare: ThroughputResult; lims: ThroughputResult }[];
  };
  latency: LatencyRow[];
  billing: BillingResult | null;
  postgres: PostgresReport | null;
  /** Import and export of patients, per engine; null when not run. */
  transfer: TransferEngineResult[] | null;
  /** The UI's initial JavaScript, gzip bytes, against its budget (scripts/ui-size.mjs). */
  ui: { gzip: number; budget: number; files: number } | null;
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const int = (n: number) => Math.round(n).toLocaleString('en-IN');

export function ratioOf(r: Report): number {
  return r.throughput.lims.rps / r.throughput.bare.rps;
}

/** Microseconds of server CPU per answered request. */
export function cpuPerRequest(t: ThroughputResult): number {
  return (t.cpuMicros ?? Number.NaN) / t.requests;
}

function clean(t: ThroughputResult | LatencyResult): boolean {
  return t.errors === 0 && t.non2xx === 0;
}

export function ratioPasses(r: Report): boolean {
  return ratioOf(r) >= TARGETS.ratio && clean(r.throughput.lims) && clean(r.throughput.bare);
}

export function latencyPasses(row: LatencyRow): boolean {
  return row.result.p50 <= TARGETS.p50 && row.result.p99 <= TARGETS.p99 && clean(row.result) && row.result.requests > 0;
}

export function billPdfPasses(r: Report): boolean {
  return r.billing !== null && r.billing.pdf.p50 <= TARGETS.billPdfMs;
}

export function postgresRatio(p: PostgresReport): number {
  return p.throughput.lims.rps / p.throughput.bare.rps;
}

export function postgresPasses(p: PostgresReport | null): boolean {
  if (!p) return false;
  const t = p.throughput;
  return (
    postgresRatio(p) >= TARGETS.postgresRatio &&
    clean(t.lims) &&
    clean(t.bare) &&
    p.latency.filter((l) => l.target).every(latencyPasses)
  );
}

export function allPass(r: Report): boolean {
  return (
    ratioPasses(r) &&
    r.latency.filter((l) => l.target).every(latencyPasses) &&
    billPdfPasses(r) &&
    postgresPasses(r.postgres) &&
    (r.transfer === null || transferPasses(r.transfer)) &&
    uiPasses(r)
  );
}

const uiPasses = (r: Report) => r.ui === null || r.ui.gzip <= r.ui.budget;
const uiLine = (ui: NonNullable<Report['ui']>) =>
  `UI initial JavaScript: ${(ui.gzip / 1024).toFixed(1)} kB gzip in ${ui.files} file(s), budget ${(ui.budget / 1024).toFixed(0)} kB`;

function renderPostgres(r: Report): string[] {
  const p = r.postgres;
  if (!p) return ['', '## PostgreSQL', '', 'Not run.'];
  const t = p.throughput;
  const ratioOk = postgresRatio(p) >= TARGETS.postgresRatio && clean(t.lims) && clean(t.bare);
  const gain = p.scaleOut.two.rps / p.scaleOut.one.rps;
  return [
    '',
    `## PostgreSQL ${p.version}`,
    '',
    `The same ${int(p.patients)} patients copied into PostgreSQL with \`lims db copy\`'s code (` +
      (p.copiedSeconds === null
        ? 'reused from an earlier run'
        : `${p.copiedSeconds.toFixed(0)} s, then VACUUM ANALYZE`) +
      '). lims runs with `--database-url`; the bare endpoint is Fastify + `pg` (a pool of 20, as lims) running',
    '`SELECT * FROM patients WHERE id = $1 AND organization_id = $2` as a named prepared statement.',
    '',
    ...throughputTable(t),
    '',
    `Ratio lims / bare on PostgreSQL: **${(postgresRatio(p) * 100).toFixed(1)}%** (target >= ${TARGETS.postgresRatio * 100}%): **${verdict(ratioOk)}**`,
    '',
    `Latency on one connection (target rows: p50 <= ${TARGETS.p50} ms and p99 <= ${TARGETS.p99} ms):`,
    '',
    ...latencyTable(p.latency),
    '',
    `Scale-out (GET patient by id, ${t.connections} connections in all, ${p.scaleOut.cores} CPU cores on this machine shared by`,
    'PostgreSQL, the lims processes and the load generator):',
    '',
    '| | requests/s | errors | non-2xx |',
    '|---|---:|---:|---:|',
    `| one lims process | ${int(p.scaleOut.one.rps)} | ${p.scaleOut.one.errors} | ${p.scaleOut.one.non2xx} |`,
    `| two lims processes, one database | ${int(p.scaleOut.two.rps)} | ${p.scaleOut.two.errors} | ${p.scaleOut.two.non2xx} |`,
    '',
    `Two processes answer **${gain.toFixed(2)}x** what one does (for information: with ${p.scaleOut.cores} cores for everything,`,
    'the gain is bounded by the cores; on separate machines each server brings its own).',
  ];
}

/** The billing section: bills created in a loop against the bare insert rate, and bill PDFs. */
export function renderBilling(r: Report): string[] {
  const b = r.billing;
  if (!b) return [];
  const rate = (s: number) => Math.round(b.bills / s).toLocaleString('en-IN');
  return [
    '',
    '## Bills: creation and PDF',
    '',
    `${b.bills.toLocaleString('en-IN')} bills of 3 tests each, created one after another. lims: \`createBill\` (catalogue look-ups,`,
    'server-side paise math, bill number, lines and audit row, one transaction each). Bare: the same bill and line rows',
    'inserted with raw prepared statements, one transaction per bill, same pragmas (WAL, synchronous=FULL).',
    '',
    '| | bills/s | seconds |',
    '|---|---:|---:|',
    `| bare insert | ${rate(b.bareSeconds)} | ${b.bareSeconds.toFixed(2)} |`,
    `| lims createBill | ${rate(b.limsSeconds)} | ${b.limsSeconds.toFixed(2)} |`,
    '',
    `lims creates bills at ${((b.bareSeconds / b.limsSeconds) * 100).toFixed(1)}% of the bare insert rate (for information).`,
    '',
    `Bill PDF (pdfkit, ${b.pdf.runs} renders of one 3-line bill, ${b.pdf.bytes.toLocaleString('en-IN')} bytes): p50 ${b.pdf.p50.toFixed(1)} ms, p95 ${b.pdf.p95.toFixed(1)} ms, max ${b.pdf.max.toFixed(1)} ms. Target p50 < ${TARGETS.billPdfMs} ms: **${billPdfPasses(r) ? 'PASS' : 'FAIL'}**`,
  ];
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** The bare and lims rows of a throughput run. */
function throughputTable(t: { bare: ThroughputResult; lims: ThroughputResult }): string[] {
  return [
    '| endpoint | requests/s | requests | seconds | errors | non-2xx | server CPU per request |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...(['bare', 'lims'] as const).map((k) => {
      const x = t[k];
      return `| ${k} | ${int(x.rps)} | ${int(x.requests)} | ${x.seconds.toFixed(1)} | ${x.errors} | ${x.non2xx} | ${cpuPerRequest(x).toFixed(0)} µs |`;
    }),
  ];
}

/** The latency rows on one connection, each with its verdict (or "information"). */
function latencyTable(rows: LatencyRow[]): string[] {
  return [
    '| request | answer | requests | p50 ms | p99 ms | mean ms | max ms | target |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (l) =>
        `| ${l.name} \`${l.path}\` | ${l.note} | ${int(l.result.requests)} | ${ms(l.result.p50)} | ${ms(l.result.p99)} | ` +
        `${ms(l.result.mean)} | ${ms(l.result.max)} | ${l.target ? verdict(latencyPasses(l)) : 'information'} |`,
    ),
  ];
}

export function renderMarkdown(r: Report): string {
  const t = r.throughput;
  const lines: string[] = [
    '# lims benchmark results',
    '',
    `Run ${r.startedAt.toISOString()} by \`npm run bench\` (overwritten on every run; see bench/README.md).`,
    '',
    `Overall: **${allPass(r) ? 'all targets met' : 'a target was missed'}**.`,
    '',
    ...(r.busy
      ? [
          `**The machine was busy** (${r.busy}): other processes competed for the CPUs, so latencies and requests per second are worse than this stack gives on an idle machine.`,
          '',
        ]
      : []),
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    ...Object.entries(r.machine).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    '## Data',
    '',
    `${int(r.dataset.patients)} patients in one lab (\`${r.dataset.file}\`), ` +
      (r.dataset.builtSeconds === null
        ? 'reused from an earlier run.'
        : `built in ${r.dataset.builtSeconds.toFixed(1)} s.`),
    '',
    `## GET patient by id: throughput at ${t.connections} connections`,
    '',
    'Random ids over the whole register. lims: `GET /api/patients/{id}` with a signed-in session cookie',
    '(session check, permission, organisation scope). Bare: Fastify + better-sqlite3, the same',
    '`SELECT * FROM patients WHERE id = ? AND organization_id = ?` with one cached prepared statement.',
    '',
    `Measured on ${t.pairs.length} pair(s) of freshly started servers, pooled below: a process's speed depends by several`,
    'percent on where its code and heap land in memory, which changes from one start to the next.',
    `Ratio per pair: ${t.pairs.map((p) => `${((p.lims.rps / p.bare.rps) * 100).toFixed(1)}%`).join(', ')}.`,
    '',
    ...throughputTable(t),
    '',
    `Ratio lims / bare: **${(ratioOf(r) * 100).toFixed(1)}%** (target >= ${TARGETS.ratio * 100}%): **${verdict(ratioPasses(r))}**`,
    '',
    'A figure less sensitive to other load on the machine: if each server were limited only by its own CPU ' +
      `time per request, lims would answer ${((cpuPerRequest(t.bare) / cpuPerRequest(t.lims)) * 100).toFixed(1)}% ` +
      "of bare's requests per second (bare CPU per request / lims CPU per request).",
    '',
    '## Latency on one connection',
    '',
    `Requests one after another on a single keep-alive connection. Target rows: p50 <= ${TARGETS.p50} ms and p99 <= ${TARGETS.p99} ms.`,
    '',
    ...latencyTable(r.latency),
    ...renderBilling(r),
    ...renderPostgres(r),
    '',
    ...(r.transfer ? [renderTransfer(r.transfer, r.machine, r.startedAt), ''] : []),
    ...(r.ui
      ? [
          '## UI',
          '',
          `${uiLine(r.ui)}: ${verdict(uiPasses(r))}. What a browser loads before the first screen (the entry script of`,
          'dist/public/index.html and its static imports); screens and their heavy parts load later.',
          '',
        ]
      : []),
  ];
  return lines.join('\n');
}

export function renderSummary(r: Report): string {
  const t = r.throughput;
  const out = [
    `by id @${t.connections} conn: lims ${int(t.lims.rps)} req/s, bare ${int(t.bare.rps)} req/s, ratio ${(ratioOf(r) * 100).toFixed(1)}% ${verdict(ratioPasses(r))}`,
    `server CPU per request: lims ${cpuPerRequest(t.lims).toFixed(0)} µs, bare ${cpuPerRequest(t.bare).toFixed(0)} µs`,
    ...r.latency.map(
      (l) =>
        `${l.name.padEnd(34)} p50 ${ms(l.result.p50).padStart(7)} ms  p99 ${ms(l.result.p99).padStart(7)} ms  ${l.target ? verdict(latencyPasses(l)) : ''}`,
    ),
    ...(r.billing
      ? [
          `bills: lims ${Math.round(r.billing.bills / r.billing.limsSeconds)}/s, bare insert ${Math.round(r.billing.bills / r.billing.bareSeconds)}/s`,
          `bill PDF p50 ${r.billing.pdf.p50.toFixed(1)} ms p95 ${r.billing.pdf.p95.toFixed(1)} ms ${verdict(billPdfPasses(r))}`,
        ]
      : []),
    ...(r.postgres
      ? [
          `PostgreSQL by id: lims ${int(r.postgres.throughput.lims.rps)} req/s, bare ${int(r.postgres.throughput.bare.rps)} req/s, ratio ${(postgresRatio(r.postgres) * 100).toFixed(1)}%`,
          ...r.postgres.latency.map(
            (l) =>
              `PostgreSQL ${l.name.padEnd(34)} p50 ${ms(l.result.p50).padStart(7)} ms  p99 ${ms(l.result.p99).padStart(7)} ms  ${l.target ? verdict(latencyPasses(l)) : ''}`,
          ),
          `PostgreSQL scale-out: one process ${int(r.postgres.scaleOut.one.rps)} req/s, two ${int(r.postgres.scaleOut.two.rps)} req/s (${r.postgres.scaleOut.cores} cores)`,
          `PostgreSQL targets: ${verdict(postgresPasses(r.postgres))}`,
        ]
      : []),
    ...(r.transfer ? transferSummary(r.transfer) : []),
    ...(r.ui ? [`${uiLine(r.ui)} ${verdict(uiPasses(r))}`] : []),
    allPass(r) ? 'all targets met' : 'a target was missed',
  ];
  return out.join('\n');
}
