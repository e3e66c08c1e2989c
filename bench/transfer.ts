import { spawn } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { stringify } from 'csv-stringify/sync';
import { openDatabase, openDatabaseAt, type Database_ } from '../src/core/db/connection.js';
import { parseDatabaseUrl } from '../src/core/db/url.js';
import { setupLab } from '../src/core/setup/service.js';
import { PATIENT_CSV_COLUMNS } from '../src/core/patients/export.js';
import { PATIENT_COLUMNS, PatientGenerator, type PatientValues } from './generate.js';

/**
 * Import and export of patients, each against a bare baseline of the same work in the
 * same run:
 * - import: `lims import patients FILE.csv` (a child process, as a person runs it: the file read,
 *   every row checked with the API's schema, codes checked for duplicates, one transaction, the
 *   import's audit entry and each patient's own, the search index) against raw prepared INSERTs of
 *   the same rows into the patients table in one transaction (the search-index and counter triggers
 *   run there too, on SQLite), on a freshly set-up lab each;
 * - export: `lims export patients --out FILE.csv` of the imported lab against a bare SELECT of the
 *   same rows streamed to a CSV file;
 * - XLSX, for information: export of BENCH_XLSX_ROWS patients to .xlsx and the import of that file
 *   into an empty lab.
 * Each CLI run's peak memory is the child's maximum resident set size.
 */

export const TRANSFER_TARGETS = { importRatio: 0.35, importMaxRssMb: 500, exportRowsPerSecond: 200_000 } as const;

const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));
const RUSAGE = fileURLToPath(new URL('./rusage.js', import.meta.url));
const SEED = 20261126;
const DAYS = 1100;
const ADMIN = { email: 'transfer.admin@lab.test', password: 'bench-password-2024' };

export interface CliRun {
  seconds: number;
  /** CPU time of the process (user + system): steadier than wall time on a shared machine. */
  cpuSeconds: number;
  maxRssMb: number;
  result: Record<string, unknown>;
}

export interface TransferEngineResult {
  engine: 'sqlite' | 'postgres';
  rows: number;
  csvMb: number;
  importRun: CliRun;
  rawImport: Timed;
  exportRun: CliRun;
  exportMb: number;
  bareExport: Timed;
  xlsx: { rows: number; exportRun: CliRun; mb: number; importRun: CliRun } | null;
}

/** The CSV a lab would bring: the columns of lims' own patient export, `rows` patients with their codes. */
export async function ensureImportCsv(dir: string, rows: number, log: (l: string) => void): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `patients-import-${rows}.csv`);
  if (existsSync(file)) {
    log(`reusing ${file}`);
    return file;
  }
  log(`writing ${file} (${rows.toLocaleString('en-IN')} patients)...`);
  const tmp = `${file}.partial`;
  const out = createWriteStream(tmp);
  out.write(`\uFEFF${stringify([PATIENT_CSV_COLUMNS], { record_delimiter: 'windows' })}`);
  const gen = new PatientGenerator(0, 0, rows, DAYS, SEED);
  const at = Object.fromEntries(PATIENT_COLUMNS.map((c, i) => [c, i])) as Record<string, number>;
  const csvAt = PATIENT_CSV_COLUMNS.map((c) => (c === 'patient_id' ? at.patient_code : at[c]));
  for (let i = 0; i < rows;) {
    const batch: unknown[][] = [];
    for (const end = Math.min(rows, i + 10_000); i < end; i++) {
      const r = gen.row(i);
      batch.push(csvAt.map((k) => (k === undefined ? '' : (r[k] ?? ''))));
    }
    if (!out.write(stringify(batch, { record_delimiter: 'windows' }))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(tmp, file);
  return file;
}

/** A freshly set-up lab (SQLite in `dataDir`, or the PostgreSQL database `url`), closed again. */
export async function freshLab(target: {
  dataDir: string;
  url?: string;
}): Promise<{ organizationId: number; adminId: number }> {
  rmSync(target.dataDir, { recursive: true, force: true });
  mkdirSync(target.dataDir, { recursive: true });
  const database = await openLab(target);
  try {
    return await setupLab(database.db, {
      labName: 'Transfer Bench Diagnostics',
      labAddress: '12, MG Road, Bengaluru',
      adminName: 'Bench Admin',
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      importSampleTests: false,
      importSampleProfiles: false,
      importSamplePackages: false,
    });
  } finally {
    await database.close();
  }
}

export function openLab(target: { dataDir: string; url?: string }): Promise<Database_> | Database_ {
  return target.url
    ? openDatabaseAt(parseDatabaseUrl(target.url), { listen: false })
    : openDatabase(join(target.dataDir, 'lims.db'));
}

/** Runs `lims ARGS --output json` in a child process: wall time, peak memory and the result line. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const rusageFile = join(fileURLToPath(new URL('.', import.meta.url)), `rusage-${process.pid}.json`);
  rmSync(rusageFile, { force: true });
  const started = performance.now();
  const child = spawn(process.execPath, [RUSAGE, BIN, ...args, '--output', 'json'], {
    env: { ...process.env, ...env, BENCH_RUSAGE_FILE: rusageFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0)
        return reject(
          new Error(`lims ${args.join(' ')} exited ${code}: ${stderr.slice(0, 2000)}${stdout.slice(0, 2000)}`),
        );
      const usage = existsSync(rusageFile)
        ? (JSON.parse(readFileSync(rusageFile, 'utf8')) as { maxRssKb: number; cpuSeconds: number })
        : { maxRssKb: Number.NaN, cpuSeconds: Number.NaN };
      rmSync(rusageFile, { force: true });
      const line = stdout.trim().split('\n').pop() ?? '{}';
      resolve({
        seconds,
        cpuSeconds: usage.cpuSeconds,
        maxRssMb: usage.maxRssKb / 1024,
        result: JSON.parse(line) as Record<string, unknown>,
      });
    });
  });
}

export interface Timed {
  seconds: number;
  cpuSeconds: number;
}

/** This process's CPU seconds since `start` (process.cpuUsage()). */
function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** The same rows as the CSV, inserted with one prepared statement in one transaction (SQLite) or multi-row INSERTs (PostgreSQL). */
async function rawInsert(target: { dataDir: string; url?: string }, rows: number): Promise<Timed> {
  const { organizationId, adminId } = await freshLab(target);
  const gen = new PatientGenerator(organizationId, adminId, rows, DAYS, SEED);
  const database = await openLab(target);
  let seconds = 0;
  let cpu = 0;
  try {
    if (database.engine === 'sqlite') {
      const sqlite = database.sqlite;
      const insert = sqlite.prepare(
        `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES (${PATIENT_COLUMNS.map(() => '?').join(', ')})`,
      );
      sqlite.exec('BEGIN IMMEDIATE');
      // Rows are made outside the clock, 50,000 at a time: only the inserts are timed.
      for (let i = 0; i < rows;) {
        const chunk: PatientValues[] = [];
        for (const end = Math.min(rows, i + 50_000); i < end; i++) chunk.push(gen.row(i));
        const t = performance.now();
        const c = process.cpuUsage();
        for (const r of chunk) insert.run(r);
        seconds += performance.now() - t;
        cpu += cpuSince(c);
      }
      const t = performance.now();
      const c = process.cpuUsage();
      sqlite.exec('COMMIT');
      seconds += performance.now() - t;
      cpu += cpuSince(c);
    } else {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        const per = 500;
        const placeholders = Array.from(
          { length: per },
          (_, r) => `(${PATIENT_COLUMNS.map((__, c) => `$${r * PATIENT_COLUMNS.length + c + 1}`).join(', ')})`,
        ).join(', ');
        const text = `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES ${placeholders}`;
        await client.query('BEGIN');
        for (let i = 0; i < rows;) {
          const chunk: PatientValues[] = [];
          for (const end = Math.min(rows, i + per); i < end; i++) chunk.push(gen.row(i));
          const t = performance.now();
          const c = process.cpuUsage();
          if (chunk.length === per) await client.query({ name: 'bench_raw_patients', text, values: chunk.flat() });
          else
            await client.query(
              `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES ${chunk
                .map(
                  (_, r) => `(${PATIENT_COLUMNS.map((__, c) => `$${r * PATIENT_COLUMNS.length + c + 1}`).join(', ')})`,
                )
                .join(', ')}`,
              chunk.flat(),
            );
          seconds += performance.now() - t;
          cpu += cpuSince(c);
        }
        const t = performance.now();
        const c = process.cpuUsage();
        await client.query('COMMIT');
        seconds += performance.now() - t;
        cpu += cpuSince(c);
      } finally {
        await client.end();
      }
    }
  } finally {
    await database.close();
  }
  // On PostgreSQL the work is the server's: this process's CPU time says nothing.
  return { seconds: seconds / 1000, cpuSeconds: database.engine === 'sqlite' ? cpu : Number.NaN };
}

/**
 * The stored columns `lims export patients` writes, in its order (the age column reads the birth date,
 * the status column is the constant it always is): the same rows and nearly the same bytes, without
 * lims' work on them (age, formula safety, the job, the audit entry).
 */
const BARE_EXPORT_COLUMNS = PATIENT_CSV_COLUMNS.map((c) =>
  c === 'patient_id' ? 'patient_code' : c === 'age' ? 'date_of_birth' : c === 'status' ? "'active'" : c,
);

const NEEDS_QUOTES = /[",\r\n]/;

/** One row of the bare export: RFC 4180 quoting where a value needs it, nothing else. */
function bareLine(r: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < r.length; i++) {
    const v = r[i];
    if (i > 0) line += ',';
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') line += String(v);
    else line += NEEDS_QUOTES.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  }
  return `${line}\r\n`;
}

/** Text gathered before each write of the bare export (one write call per this many characters). */
const BARE_WRITE_CHARS = 64 * 1024;

/**
 * A bare export: every patient row of the lab selected and written to a CSV file as it comes, as
 * fast as this stack does it honestly. SQLite: one statement in raw mode (arrays, no objects)
 * iterated, the text built in one string and written with one synchronous write per 64 KB.
 * PostgreSQL: a cursor of 1,000 rows a fetch in array mode.
 */
async function bareExport(target: { dataDir: string; url?: string }, file: string): Promise<Timed & { rows: number }> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let rows = 0;
  const fd = openSync(file, 'w');
  const sql = `SELECT ${BARE_EXPORT_COLUMNS.join(', ')} FROM patients WHERE organization_id = 1 ORDER BY id DESC`;
  try {
    writeSync(fd, `\uFEFF${PATIENT_CSV_COLUMNS.join(',')}\r\n`);
    if (!target.url) {
      const database = openDatabase(join(target.dataDir, 'lims.db'));
      try {
        let text = '';
        for (const r of database.sqlite!.prepare(sql).raw().iterate() as IterableIterator<unknown[]>) {
          text += bareLine(r);
          rows += 1;
          if (text.length >= BARE_WRITE_CHARS) {
            writeSync(fd, text);
            text = '';
          }
        }
        writeSync(fd, text);
      } finally {
        await database.close();
      }
    } else {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        // A cursor of 1,000 rows at a time: constant memory, as lims' export.
        await client.query('BEGIN');
        await client.query(`DECLARE bench_export NO SCROLL CURSOR FOR ${sql}`);
        for (;;) {
          const page = await client.query({ text: 'FETCH 1000 FROM bench_export', rowMode: 'array' });
          if (!page.rows.length) break;
          rows += page.rows.length;
          let text = '';
          for (const r of page.rows as unknown[][]) text += bareLine(r);
          writeSync(fd, text);
        }
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    }
  } finally {
    closeSync(fd);
  }
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: target.url ? Number.NaN : cpuSince(cpuStart),
    rows,
  };
}

async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const _ of createInterface({ input: createReadStream(file) })) n += 1;
  return n;
}

/**
 * Import, export and XLSX on one engine. `url`: a PostgreSQL server's admin URL (databases
 * lims_transfer and lims_transfer_raw are made afresh there), or undefined for SQLite.
 */
export async function measureTransfer(
  dir: string,
  csv: string,
  rows: number,
  xlsxRows: number,
  log: (l: string) => void,
  pg?: { database: (name: string) => Promise<string> },
): Promise<TransferEngineResult> {
  const engine = pg ? 'postgres' : 'sqlite';
  const work = join(dir, `transfer-${engine}`);
  const lab = { dataDir: join(work, 'lab'), url: pg ? await pg.database('lims_transfer') : undefined };
  const raw = { dataDir: join(work, 'raw'), url: pg ? await pg.database('lims_transfer_raw') : undefined };
  const dbArgs = (t: { dataDir: string; url?: string }) => [
    '--data-dir',
    t.dataDir,
    ...(t.url ? ['--database-url', t.url] : []),
  ];
  try {
    log(`${engine}: raw inserts of the same ${rows.toLocaleString('en-IN')} rows (one transaction)...`);
    const rawImport = await rawInsert(raw, rows);
    log(`  ${rawImport.seconds.toFixed(1)} s`);
    await freshLab(lab);
    log(`${engine}: lims import patients (${rows.toLocaleString('en-IN')} rows)...`);
    const importRun = await runCli([...dbArgs(lab), 'import', 'patients', csv]);
    if (importRun.result.status !== 'completed' || importRun.result.inserted !== rows)
      throw new Error(`the import did not complete: ${JSON.stringify(importRun.result).slice(0, 1000)}`);
    log(`  ${importRun.seconds.toFixed(1)} s, ${importRun.maxRssMb.toFixed(0)} MB`);

    const exported = join(work, 'export.csv');
    log(`${engine}: lims export patients...`);
    const exportRun = await runCli([...dbArgs(lab), 'export', 'patients', '--out', exported]);
    if (exportRun.result.rows !== rows) throw new Error(`the export wrote ${String(exportRun.result.rows)} rows`);
    const exportMb = statSync(exported).size / 2 ** 20;
    log(`  ${exportRun.seconds.toFixed(1)} s, ${exportRun.maxRssMb.toFixed(0)} MB`);
    log(`${engine}: bare SELECT streamed to a file...`);
    const bare = await bareExport(lab, join(work, 'bare.csv'));
    if (bare.rows !== rows) throw new Error(`the bare export read ${bare.rows} rows`);
    if ((await countLines(exported)) < rows + 1) throw new Error('the export file is short');

    let xlsx: TransferEngineResult['xlsx'] = null;
    if (xlsxRows > 0) {
      // The newest xlsxRows patients: the export filtered by registration date would differ per
      // run, so a lab of exactly that many is made by importing the first rows of the CSV.
      const small = join(work, `patients-${xlsxRows}.csv`);
      const lines = readFileSync(csv, 'utf8').split('\r\n', xlsxRows + 1);
      const { writeFileSync } = await import('node:fs');
      writeFileSync(small, `${lines.join('\r\n')}\r\n`);
      await freshLab(lab);
      await runCli([...dbArgs(lab), 'import', 'patients', small]);
      const book = join(work, `patients-${xlsxRows}.xlsx`);
      log(`${engine}: XLSX export and import of ${xlsxRows.toLocaleString('en-IN')} patients...`);
      const xlsxExport = await runCli([...dbArgs(lab), 'export', 'patients', '--out', book]);
      await freshLab(lab);
      const xlsxImport = await runCli([...dbArgs(lab), 'import', 'patients', book]);
      if (xlsxImport.result.inserted !== xlsxRows)
        throw new Error(`the XLSX import did not complete: ${JSON.stringify(xlsxImport.result).slice(0, 1000)}`);
      xlsx = { rows: xlsxRows, exportRun: xlsxExport, mb: statSync(book).size / 2 ** 20, importRun: xlsxImport };
    }
    return {
      engine,
      rows,
      csvMb: statSync(csv).size / 2 ** 20,
      importRun,
      rawImport,
      exportRun,
      exportMb,
      bareExport: bare,
      xlsx,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const importRatio = (r: TransferEngineResult) => r.rawImport.seconds / r.importRun.seconds;
/** The same ratio by CPU time (SQLite only: there all the work is in the process). */
export const importCpuRatio = (r: TransferEngineResult) => r.rawImport.cpuSeconds / r.importRun.cpuSeconds;
export const exportRate = (r: TransferEngineResult) => r.rows / r.exportRun.seconds;
/** The threads lims' export read and wrote with (its result line says; 1 on PostgreSQL and for small exports). */
export const exportThreads = (r: TransferEngineResult) => Number(r.exportRun.result.threads ?? 1);
/** lims' export against the bare one of the same run, by wall time (and by CPU time, SQLite). */
export const exportRatio = (r: TransferEngineResult) => r.bareExport.seconds / r.exportRun.seconds;
export const exportCpuRatio = (r: TransferEngineResult) => r.bareExport.cpuSeconds / r.exportRun.cpuSeconds;

export function importPasses(r: TransferEngineResult): boolean {
  return importRatio(r) >= TRANSFER_TARGETS.importRatio && r.importRun.maxRssMb < TRANSFER_TARGETS.importMaxRssMb;
}

export function exportPasses(r: TransferEngineResult): boolean {
  return exportRate(r) >= TRANSFER_TARGETS.exportRowsPerSecond;
}

export const TRANSFER_START = '<!-- transfer:start -->';
export const TRANSFER_END = '<!-- transfer:end -->';

const s1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-IN') : 'n/a');
const pct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)}%` : 'n/a');
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** Whether every import/export target is met: SQLite's (PostgreSQL's figures are for information). */
export function transferPasses(results: readonly TransferEngineResult[]): boolean {
  const sqlite = results.find((r) => r.engine === 'sqlite');
  return sqlite !== undefined && importPasses(sqlite) && exportPasses(sqlite);
}

/** The PASS/FAIL lines and figures printed at the end of a run. */
export function transferSummary(results: readonly TransferEngineResult[]): string[] {
  return results.flatMap((r) => {
    const target = r.engine === 'sqlite';
    const tag = (ok: boolean) => (target ? verdict(ok) : '(information)');
    return [
      `${r.engine} import ${int(r.rows)} patients: ${s1(r.importRun.seconds)} s (raw inserts ${s1(r.rawImport.seconds)} s), ` +
        `${pct(importRatio(r))} of raw (target >= ${TRANSFER_TARGETS.importRatio * 100}%), ` +
        `${int(r.importRun.maxRssMb)} MB (target < ${TRANSFER_TARGETS.importMaxRssMb} MB) ${tag(importPasses(r))}`,
      ...(target ? [`${r.engine} import by CPU time: ${pct(importCpuRatio(r))} of raw`] : []),
      `${r.engine} export ${int(r.rows)} patients: ${int(exportRate(r))} rows/s on ${exportThreads(r)} thread(s) ` +
        `(bare, one thread: ${int(r.rows / r.bareExport.seconds)} rows/s, lims ${pct(exportRatio(r))} of bare), ` +
        `${int(r.exportRun.maxRssMb)} MB (target >= ${int(TRANSFER_TARGETS.exportRowsPerSecond)} rows/s) ${tag(exportPasses(r))}`,
      ...(r.xlsx
        ? [
            `${r.engine} XLSX ${int(r.xlsx.rows)} patients: export ${int(r.xlsx.rows / r.xlsx.exportRun.seconds)} rows/s, ` +
              `import ${int(r.xlsx.rows / r.xlsx.importRun.seconds)} rows/s (information)`,
          ]
        : []),
    ];
  });
}

/** The import/export section of results.md, between markers so a run of only these targets can replace it. */
export function renderTransfer(
  results: readonly TransferEngineResult[],
  machine: Record<string, string>,
  startedAt: Date,
): string {
  const lines = [
    TRANSFER_START,
    '',
    '## Import and export of patients',
    '',
    `Measured ${startedAt.toISOString()}` +
      ` (machine during this part: load average ${machine['transfer load average (start / end)'] ?? 'n/a'} on ${machine.cpus ?? 'n/a'}).`,
    '`lims import patients FILE.csv` and `lims export patients --out FILE.csv` run as child processes (wall time from',
    "spawn to exit, start-up included; peak memory is the child's maximum resident set). Raw inserts: the same rows with",
    'one prepared INSERT into `patients` in one transaction, in this process (SQLite: the search-index and counter',
    "triggers run too; PostgreSQL: multi-row INSERTs of 500, without lims' search words). Bare export: `SELECT` of the",
    'same columns (SQLite: one raw-mode statement iterated; PostgreSQL: a cursor) written as CSV, quoted where a value',
    'needs it, one synchronous write per 64 KB, on ONE thread. lims exports a large SQLite CSV on worker threads (the',
    'threads column; src/core/transfer/parallel.ts), so lims / bare compares several threads with one. CPU time is',
    'given beside wall time (all threads of the process): on a shared machine it moves less.',
    '',
    '| engine | rows | import s (CPU s) | raw inserts s (CPU s) | import / raw | peak MB | export s (CPU s) | export threads | rows/s | bare export s (CPU s) | bare rows/s | export / bare | export MB peak |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${int(r.rows)} | ${s1(r.importRun.seconds)} (${s1(r.importRun.cpuSeconds)}) | ` +
        `${s1(r.rawImport.seconds)} (${s1(r.rawImport.cpuSeconds)}) | ${pct(importRatio(r))} | ${int(r.importRun.maxRssMb)} | ` +
        `${s1(r.exportRun.seconds)} (${s1(r.exportRun.cpuSeconds)}) | ${exportThreads(r)} | ${int(exportRate(r))} | ` +
        `${s1(r.bareExport.seconds)} (${s1(r.bareExport.cpuSeconds)}) | ${int(r.rows / r.bareExport.seconds)} | ${pct(exportRatio(r))} | ` +
        `${int(r.exportRun.maxRssMb)} |`,
    ),
    '',
    ...results.flatMap((r) =>
      r.engine === 'sqlite'
        ? [
            `SQLite import: **${pct(importRatio(r))}** of raw insert speed (by CPU time ${pct(importCpuRatio(r))}), ` +
              `peak ${int(r.importRun.maxRssMb)} MB (targets >= ${TRANSFER_TARGETS.importRatio * 100}%, < ${TRANSFER_TARGETS.importMaxRssMb} MB): **${verdict(importPasses(r))}**`,
            '',
            `SQLite export: **${int(exportRate(r))} rows/s** (target >= ${int(TRANSFER_TARGETS.exportRowsPerSecond)}): **${verdict(exportPasses(r))}**; ` +
              `the bare export of the same run ${int(r.rows / r.bareExport.seconds)} rows/s (${int(r.rows / r.bareExport.cpuSeconds)} rows per CPU second), ` +
              `lims, on ${exportThreads(r)} thread(s), ${pct(exportRatio(r))} of it by wall time (by CPU time ${pct(exportCpuRatio(r))}; ` +
              `lims' time includes its process start; the bare export is one thread)`,
            '',
          ]
        : [
            `PostgreSQL (for information): import ${pct(importRatio(r))} of raw inserts, export ${int(exportRate(r))} rows/s.`,
            '',
          ],
    ),
    'XLSX (for information; exceljs streaming writer and reader):',
    '',
    '| engine | rows | export s | export rows/s | file MB | export peak MB | import s | import rows/s | import peak MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results
      .filter((r) => r.xlsx)
      .map((r) => {
        const x = r.xlsx!;
        return (
          `| ${r.engine} | ${int(x.rows)} | ${s1(x.exportRun.seconds)} | ${int(x.rows / x.exportRun.seconds)} | ${s1(x.mb)} | ` +
          `${int(x.exportRun.maxRssMb)} | ${s1(x.importRun.seconds)} | ${int(x.rows / x.importRun.seconds)} | ${int(x.importRun.maxRssMb)} |`
        );
      }),
    '',
    TRANSFER_END,
  ];
  return lines.join('\n');
}
