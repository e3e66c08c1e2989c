/** The bench's settings from the environment, its paths and its log, shared by its parts. */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { reportEngines, type ReportEngine } from './reports.js';

export const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

/** A positive whole number from the environment, or the default; anything else stops the run. */
export function setting(name: string, fallback: number): number {
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
export function count(name: string, fallback: number): number {
  return process.env[name] === '0' ? 0 : setting(name, fallback);
}

export const PATIENTS = setting('BENCH_PATIENTS', 1_000_000);
export const IMPORT_ROWS = setting('BENCH_IMPORT_ROWS', 1_000_000);
/** Samples of 10 results each sent through the analyser interface: 10,000 results. */
export const INTERFACE_SAMPLES = setting('BENCH_INTERFACE_SAMPLES', 1_000);
export const XLSX_ROWS = count('BENCH_XLSX_ROWS', 100_000);
export const TRANSFER_ENGINES = (process.env.BENCH_TRANSFER_ENGINES ?? 'sqlite,postgres')
  .split(',')
  .map((e) => e.trim());
/** BENCH_REPORT_ENGINES: the engines the report targets run on, default "sqlite,postgres". */
export const REPORT_ENGINES: ReportEngine[] = (() => {
  try {
    return reportEngines();
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(2);
  }
})();
export const THROUGHPUT_SECONDS = setting('BENCH_SECONDS', 10);
export const LATENCY_SECONDS = setting('BENCH_LATENCY_SECONDS', 4);
export const CONNECTIONS = 32;
/** Common 3-letter starts of Indian names; "ram" and "sha" match tens of thousands of patients. */
export const SEARCH_PREFIXES = ['ram', 'sha', 'pri', 'kum', 'ana'];
export const WARM_UP_SECONDS = 5;
/**
 * Throughput is measured on this many pairs of freshly started servers and pooled: how fast one
 * process runs depends on where its code and heap happen to land in memory, by several percent
 * from one start to the next (the same build measured against itself ranged 100-109%).
 */
export const SERVER_PAIRS = setting('BENCH_PAIRS', 3);
/** Nothing here may run unbounded: the whole run is abandoned after this long. */
export const DEADLINE_MS = 60 * 60_000;

export const log = (line: string) => process.stdout.write(`${line}\n`);

export const loadNow = () =>
  loadavg()
    .slice(0, 1)
    .map((n) => n.toFixed(2))[0]!;
