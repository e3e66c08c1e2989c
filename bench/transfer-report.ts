import type { TransferEngineResult } from './transfer.js';

/** The import and export targets, their ratios to the bare baseline, and their section of results.md. */

export const TRANSFER_TARGETS = { importRatio: 0.35, importMaxRssMb: 500, exportRowsPerSecond: 200_000 } as const;

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
