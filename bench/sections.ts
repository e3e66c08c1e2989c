/** The parts of `npm run bench` that each write their own section of results.md. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { measureReports, renderReports, reportsPass, REPORTS_END, REPORTS_START } from './reports.js';
import { INTERFACES_END, INTERFACES_START, measureInterfaces, renderInterfaces } from './interfaces.js';
import { freshDatabase, postgresServer } from './postgres.js';
import { HEAVY_END, HEAVY_START, heavyPasses, measureHeavy, renderHeavy } from './heavy.js';
import { LINKS_END, LINKS_START, linksPass, measureReportLinks, renderReportLinks } from './report-links.js';
import { LOCK_END, LOCK_START, lockPasses, measureImportLock, renderImportLock, type LockCase } from './import-lock.js';
import { root, setting, INTERFACE_SAMPLES, TRANSFER_ENGINES, REPORT_ENGINES, log, loadNow } from './settings.js';

/** results.md with the section between start and end markers replaced (or appended). */
export function replaceSection(start: string, end: string, section: string): void {
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
export async function heavySection(): Promise<boolean> {
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
export async function reportLinksSection(): Promise<boolean> {
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
export async function importLockSection(): Promise<boolean> {
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
export async function reportsSection(): Promise<boolean> {
  const startedAt = new Date();
  log('');
  log('reports on a generated year of a busy lab');
  const results = await measureReports(root('bench/.data'), log, { engines: REPORT_ENGINES });
  replaceSection(REPORTS_START, REPORTS_END, renderReports(results, startedAt));
  log('reports section written to bench/results.md');
  return reportsPass(results);
}

/** Results per second through the analyser interface against bare enterResult; its section replaced. */
export async function interfacesSection(): Promise<boolean> {
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
