import { spawn } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { stringify } from 'csv-stringify/sync';
import { PATIENT_CSV_COLUMNS } from '../src/core/patients/export.js';
import { PATIENT_COLUMNS, PatientGenerator } from './generate.js';
import { bareExport, rawInsert, type Timed } from './transfer-bare.js';
import { DAYS, freshLab, SEED } from './transfer-lab.js';

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

const BIN = fileURLToPath(new URL('../../bin/lims.js', import.meta.url));
const RUSAGE = fileURLToPath(new URL('./rusage.js', import.meta.url));

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
