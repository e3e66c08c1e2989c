import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import { ACCOUNT_EXPORTS, runAccountsExport } from './accounts-export.js';
import { dataPaths } from '../../core/datadir.js';
import { ValidationError } from '../../core/errors.js';
import type { AnyEntity, ColumnMapping, ImportProgress, ImportResult } from '../../core/transfer/service.js';
import { describeErrorGroup, describeRowError } from '../../core/transfer/errors.js';
import { writeFailure } from '../../core/transfer/output-errors.js';
import { formatOfName, IMPORT_FORMATS, LIMITS, type TransferFormat } from '../../core/transfer/limits.js';
import { DATA_ENTITIES } from '../../shared/schemas/data-jobs.js';
import { formatCount } from '../../shared/count.js';
import { isoDate } from '../../shared/schemas/common.js';
import { localDate } from '../../shared/time.js';
import { dataDirOf, withDataDirLock, withLab } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import type { Output } from '../output.js';
import { FileSink, cannotWrite, stdoutName, stdoutSink, stoppable } from '../sinks.js';

/**
 * `lims import` and `lims export`: the CLI side of src/core/transfer. Results go to
 * stdout (one line, or one JSON object with --output json); progress goes to stderr, only on a
 * terminal; a refused import lists its first errors on stderr and writes all of them to a report.
 */

type Tty = NodeJS.WritableStream & { isTTY?: boolean };

interface ImportFlags {
  format?: TransferFormat;
  dryRun?: boolean;
  update?: boolean;
  mapping?: string;
  output: 'text' | 'json';
}

interface ExportFlags {
  month?: string;
  format?: string;
  out?: string;
  from?: string;
  to?: string;
  where: string[];
  output: 'text' | 'json';
}

/** The entity registry and the import and export machinery, loaded when an import or export runs. */
const transfer = () => import('../../core/transfer/service.js');

// The same names as the registry's (a test compares them), without loading it for every command line.
const entityList = () => DATA_ENTITIES.join(', ');

async function entityOf(name: string): Promise<AnyEntity> {
  const e = (await transfer()).entityNamed(name);
  if (!e) {
    const near = DATA_ENTITIES.find((n) => n.startsWith(name.toLowerCase().slice(0, 3)));
    throw new UsageError(`unknown entity '${name}'${near ? ` (did you mean ${near}?)` : ''}; one of ${entityList()}`);
  }
  return e;
}

function readMapping(file: string, entity: AnyEntity): ColumnMapping {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(file), 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new UsageError(`--mapping ${file}: ${why}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`--mapping ${file}: must be a JSON object {"their header": "our_column"}`);
  const names = new Set(entity.columns.map((c) => c.name));
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (v !== null && typeof v !== 'string')
      throw new UsageError(`--mapping ${file}: "${k}" must map to a column name or null (got ${JSON.stringify(v)})`);
    if (typeof v === 'string' && v !== '' && !names.has(v))
      throw new UsageError(
        `--mapping ${file}: "${k}" maps to ${v}, which is not a column of ${entity.name} (${[...names].join(', ')})`,
      );
    out[k] = v || null;
  }
  return out;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(s < 10 ? 1 : 0)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** A one-line progress display on a terminal: rows, rows per second, and (imports) the time left by bytes read. */
function progressLine(stream: Tty) {
  const tty = stream.isTTY === true;
  const started = Date.now();
  let shown = 0;
  let width = 0;
  return {
    show(text: (elapsedMs: number) => string) {
      if (!tty) return;
      const now = Date.now();
      if (now - shown < 200) return;
      shown = now;
      const line = text(now - started);
      stream.write(`\r${line.padEnd(width)}`);
      width = line.length;
    },
    clear() {
      if (tty && width) stream.write(`\r${' '.repeat(width)}\r`);
    },
  };
}

/** --output of import and export: how the one result line is printed. */
const resultLineOption = () =>
  new Option('--output <style>', 'the result line: text, or json for scripts')
    .choices(['text', 'json'])
    .default('text');

export function registerData(program: Command, out: Output, streams: { stdout: Tty; stderr: Tty }): void {
  program
    .command('import')
    .description('import a CSV, XLSX or JSON file of patients, tests, ... (every row checked first; all or nothing)')
    .argument('<entity>', `what the file holds: ${entityList()}`)
    .argument('<file>', 'the file: .csv, .xlsx or .json (else say --format)')
    .addOption(new Option('--format <format>', 'the file format (default: by the file name)').choices(IMPORT_FORMATS))
    .option('--dry-run', 'check every row and report, but store nothing')
    .option('--update', 'rows whose key (patient code, test code, email, ...) is stored already update it')
    .option('--mapping <file>', 'a JSON file {"their header": "our_column"} for files from another system')
    .addOption(resultLineOption())
    .addHelpText(
      'after',
      `
Examples:
  $ lims import patients patients.csv --dry-run
  $ lims import tests menu.xlsx
  $ lims import profiles profiles.csv
  $ lims import patients old-system.csv --mapping mapping.json --output json

Rows are numbered as a spreadsheet shows the file: the header is row 1, the first data row row 2
(JSON files: records 1, 2, ...). One bad row and nothing is stored (exit 1): the first
${LIMITS.shownErrors} errors are listed here, all of them in a report file whose path is printed.
An import (not --dry-run) refuses while lims serve runs on this data dir: stop it first, or
import through the web's Data screens. The columns, the limits and the rules: docs/cli.md.`,
    )
    .action(async (entityName: string, file: string, flags: ImportFlags, cmd: Command) => {
      const entity = await entityOf(entityName);
      if (flags.update && !entity.updateSchema)
        throw new UsageError(
          `--update: ${entity.name} cannot be updated by an import (${entity.noUpdate ?? 'not offered'})`,
        );
      const mapping = flags.mapping ? readMapping(flags.mapping, entity) : undefined;
      const path = resolve(file);
      if (!existsSync(path)) throw new CliError(`no such file: ${path}`);
      if (!flags.format && !formatOfName(path))
        throw new UsageError(`cannot tell the format of ${basename(path)} from its name; say --format csv|xlsx|json`);
      // A storing import holds the data dir (no server writes meanwhile); a dry run only reads.
      const run = () =>
        withLab(cmd, async ({ database, actor, dir }) => {
          const progress = progressLine(streams.stderr);
          const verb = flags.dryRun ? 'checking' : 'importing';
          const { runImport } = await transfer();
          const result = await runImport(database.db, actor, {
            entity,
            path,
            format: flags.format,
            mapping,
            dryRun: flags.dryRun ?? false,
            update: flags.update ?? false,
            origin: 'cli',
            reportPath: (id) => join(dataPaths(dir).importReportsDir, `import-${id}-${entity.name}-errors.csv`),
            spoolDir: dataPaths(dir).importReportsDir,
            onProgress: (p: ImportProgress) =>
              progress.show((ms) => {
                if (p.stored !== undefined)
                  return `storing ${entity.name}: ${formatCount(p.stored)} of ${formatCount(p.processed)} rows`;
                const rate = ms > 0 ? Math.round((p.processed / ms) * 1000) : 0;
                const share = p.fileSize ? p.bytes / p.fileSize : 0;
                const left = share > 0.02 && share < 1 ? `, about ${seconds((ms / share) * (1 - share))} left` : '';
                return `${verb} ${entity.name}: ${formatCount(p.processed)} rows (${formatCount(rate)}/s), ${Math.floor(share * 100)}%${left}${p.errors ? `, ${formatCount(p.errors)} errors` : ''}`;
              }),
          });
          progress.clear();
          reportImport(result, flags, out, streams.stderr);
        });
      return flags.dryRun ? run() : withDataDirLock(dataDirOf(cmd), `lims import ${entity.name}`, run);
    });

  program
    .command('export')
    .description('export patients, tests, bills, ... as CSV, XLSX or JSON (to a file, or to standard output)')
    .argument('<entity>', `what to export: ${entityList()}; or tally, gstr1, einvoice (the accountant's month)`)
    // Not a fixed choice list: an entity is csv, xlsx or json, tally is xml, gstr1 json or csv.
    .option('--format <format>', 'csv, xlsx or json (default: by --out, else csv); tally: xml; gstr1: json or csv')
    .option('-o, --out <file>', 'the file to write (replaced if it exists); default: standard output when piped')
    .option('--from <date>', 'from this day on (YYYY-MM-DD, the lab calendar), by the entity date')
    .option('--to <date>', 'up to and including this day (YYYY-MM-DD)')
    .option('--month <YYYY-MM>', 'with tally, gstr1 or einvoice: the calendar month (the lab days)')
    .option(
      '--where <field=value>',
      'only records whose field has this value (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [],
    )
    .addOption(resultLineOption())
    .addHelpText(
      'after',
      `
Examples:
  $ lims export patients --out patients.csv
  $ lims export bills --from 2026-04-01 --to 2026-04-30 --out april-bills.xlsx
  $ lims export tests --format json > menu.json
  $ lims export patients --where gender=Female --where membership_type=premium
  $ lims export tally --month 2026-11 --out /srv/tally/2026-11.xml
  $ lims export gstr1 --month 2026-11 --out gstr1-2026-11.json
  $ lims export gstr1 --month 2026-11 --format csv --out gstr1-2026-11/

CSV is the same file the web UI downloads: UTF-8 with a byte order mark, formula-safe cells.
Without --out on a terminal the file is written here as <entity>-<date>.<ext> and its name said.`,
    )
    .action(async (entityName: string, flags: ExportFlags, cmd: Command) => {
      const accounts = ACCOUNT_EXPORTS.find((k) => k === entityName.trim());
      if (accounts) return runAccountsExport(accounts, flags, cmd, out, streams.stdout);
      if (flags.month !== undefined)
        throw new UsageError(`--month ${flags.month}: goes with tally, gstr1 or einvoice; use --from and --to`);
      const entity = await entityOf(entityName);
      const { checkFilters, runExport, parallelSettings } = await transfer();
      if (flags.format !== undefined && !IMPORT_FORMATS.includes(flags.format as TransferFormat))
        throw new UsageError(`--format ${flags.format}: export ${entity.name} writes csv, xlsx or json`);
      const format =
        (flags.format as TransferFormat | undefined) ?? (flags.out ? (formatOfName(flags.out) ?? 'csv') : 'csv');
      const day = (flag: string, v: string | undefined) => {
        if (v === undefined) return undefined;
        const r = isoDate('the date').safeParse(v.trim());
        if (!r.success) throw new UsageError(`${flag}: ${r.error.issues[0]?.message} (got "${v}")`);
        return r.data;
      };
      const from = day('--from', flags.from);
      const to = day('--to', flags.to);
      if (from && to && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
      const where: Record<string, string> = {};
      for (const w of flags.where) {
        const at = w.indexOf('=');
        if (at <= 0) throw new UsageError(`--where ${w}: write it as field=value, e.g. --where gender=Female`);
        where[w.slice(0, at).trim()] = w.slice(at + 1).trim();
      }
      let filters: Record<string, unknown>;
      try {
        filters = checkFilters(entity, where);
        if ((from || to) && !entity.dateField)
          throw ValidationError.field(
            'from',
            `${entity.name} have no date to choose them by; leave out --from and --to`,
          );
      } catch (err) {
        if (err instanceof ValidationError)
          throw new UsageError(`--${err.details?.[0]?.path ?? 'where'} ${err.details?.[0]?.message ?? err.message}`);
        throw err;
      }
      return withLab(cmd, async ({ database, actor, org }) => {
        const toStdout = !flags.out && streams.stdout.isTTY !== true;
        const file = flags.out
          ? resolve(flags.out)
          : toStdout
            ? null
            : resolve(`${entity.name}-${localDate(org.timezone)}.${format}`);
        // A file is written as <file>.partial, up to 1 MB ahead of the disk (the next page is read
        // while the last is written), and put in place when complete; standard output through a
        // sink that turns a full disk or a closed pipe into this export's error.
        const sink = file ? new FileSink(file) : stdoutSink(streams.stdout);
        const target = file ?? stdoutName(streams.stdout);
        const progress = progressLine(streams.stderr);
        let result;
        try {
          result = await stoppable(sink, () =>
            runExport(database.db, actor, {
              entity,
              format,
              query: { from, to, where: filters },
              out: sink,
              fileName: file ? basename(file) : null,
              origin: 'cli',
              // Only the command line exports on several threads; the server's exports stay on one (decisions.md).
              parallel: parallelSettings(),
              onProgress: (rows) =>
                progress.show(
                  (ms) =>
                    `exporting ${entity.name}: ${formatCount(rows)} rows (${formatCount(Math.round((rows / Math.max(ms, 1)) * 1000))}/s)`,
                ),
              // Inside the job: a file that cannot be put in place fails the job, not just the command.
              settled: async () => {
                await finished(sink);
                return sink instanceof FileSink ? sink.commit() : null;
              },
            }),
          );
        } catch (err) {
          if (sink instanceof FileSink) sink.discard();
          if (err instanceof ValidationError) throw new UsageError(err.message);
          // The output's own failure (it may surface as a later error of the export) is the reason.
          if (sink.errored || writeFailure(err)) throw cannotWrite(target, sink.errored ?? err);
          throw err;
        } finally {
          progress.clear();
        }
        const summary = `exported ${formatCount(result.rows)} ${entity.name}${file ? ` to ${file}` : ''} (${format}; job ${result.job_id})`;
        if (flags.output === 'json') {
          const line = `${JSON.stringify({ ...result, file })}\n`;
          (file ? streams.stdout : streams.stderr).write(line);
        } else if (file) out.line(summary);
        else if (streams.stderr.isTTY) streams.stderr.write(`${summary}\n`);
      });
    });
}

function reportImport(r: ImportResult, flags: ImportFlags, out: Output, stderr: Tty): void {
  const n = (x: number) => formatCount(x);
  if (flags.output === 'json') {
    const { first_errors, ...rest } = r;
    out.line(
      JSON.stringify({
        ...rest,
        first_errors: first_errors
          .slice(0, LIMITS.shownErrors)
          .map((e) => ({ ...e, text: describeRowError(e, r.unit) })),
      }),
    );
  }
  if (r.status === 'completed') {
    if (flags.output === 'json') return;
    const what = `${n(r.inserted)} new, ${n(r.updated)} updated`;
    const ignored = r.ignored_columns.length ? `; left out: ${r.ignored_columns.join(', ')}` : '';
    out.line(
      r.dry_run
        ? `checked ${n(r.rows)} ${r.entity} in ${r.file_name}: every ${r.unit} is valid (${what} if imported); nothing was stored (--dry-run)${ignored}`
        : `imported ${n(r.rows)} ${r.entity} from ${r.file_name} (${what}; job ${r.job_id})${ignored}`,
    );
    return;
  }
  if (r.message) throw new CliError(`${r.file_name}: ${r.message}`);
  // The same problem on many rows is one line with its count and first rows; a few different
  // problems are listed row by row.
  const grouped = r.error_groups.some((g) => g.count > 1);
  if (grouped)
    for (const g of r.error_groups.slice(0, LIMITS.shownErrors)) stderr.write(`  ${describeErrorGroup(g, r.unit)}\n`);
  else for (const e of r.first_errors.slice(0, LIMITS.shownErrors)) stderr.write(`  ${describeRowError(e, r.unit)}\n`);
  const kinds = grouped && r.error_groups.length > 1 ? ` of ${n(r.error_groups.length)} kinds (above)` : '';
  const more = !grouped && r.errors > LIMITS.shownErrors ? ` (the first ${LIMITS.shownErrors} are above)` : '';
  const where = r.error_file ? `; every error is listed in ${r.error_file}` : '';
  throw new CliError(
    `${r.file_name}: ${n(r.errors)} error${r.errors === 1 ? '' : 's'}${kinds} in ${n(r.rows)} ${r.unit}s${more}; ${
      r.dry_run ? 'checked only (--dry-run)' : 'nothing was stored'
    }${where}`,
  );
}
