import { formatBytes } from '../../shared/bytes.js';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { monthlyQuery } from '../../shared/schemas/reports.js';
import { withLab } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';

interface ReportFlags {
  out?: string;
  month?: string;
}

function writeOut(file: string, pdf: Buffer): void {
  try {
    writeFileSync(file, pdf);
  } catch (err) {
    throw new CliError(`--out: cannot write ${file}: ${(err as Error).message}`, 1, { cause: err });
  }
}

export function registerReport(program: Command, out: Output, stdout: NodeJS.WritableStream): void {
  program
    .command('report')
    .description(
      'write the lab report of a sample as PDF (the same report the web UI and the patient portal give); `report monthly --month YYYY-MM` writes the monthly management report',
    )
    .argument('<sample_id>', 'the sample ID (e.g. SMP202611210001), its barcode, or its database id; or "monthly"')
    .option(
      '-o, --out <file>',
      'PDF file to write (default: report-<sample_id>.pdf or monthly-report-<month>.pdf here; "-" for stdout)',
    )
    .option('--month <YYYY-MM>', 'with "monthly": the calendar month of the management report (the lab\'s days)')
    .addHelpText(
      'after',
      `
Only verified results are printed as values; others show "Awaiting verification" or "Result awaited".

Examples:
  $ lims report SMP202611210001
  $ lims report SMP202611210001 --out /tmp/report.pdf
  $ lims report BCBL12345678901 --out - | lp
  $ lims report monthly --month 2026-10 --out /srv/reports/2026-10.pdf`,
    )
    .action((ref: string, flags: ReportFlags, cmd: Command) =>
      withLab(cmd, async ({ database, org, actor }) => {
        if (ref.trim() === 'monthly') {
          const q = monthlyQuery.safeParse({ month: flags.month, format: 'pdf' });
          if (!q.success)
            throw new CliError(
              flags.month === undefined
                ? '--month is required: lims report monthly --month YYYY-MM'
                : `--month: ${flags.month} is not a month as YYYY-MM`,
              2,
            );
          const { monthlyPdf } = await import('../../core/reports/monthly.js');
          const { file } = await monthlyPdf(database.db, actor, q.data.month);
          const pdf = file.body as Buffer;
          if (flags.out === '-') {
            stdout.write(pdf);
            return;
          }
          const target = resolve(flags.out ?? file.name);
          writeOut(target, pdf);
          out.line(`wrote ${target} (${formatBytes(pdf.length)})`);
          return;
        }
        if (flags.month !== undefined) throw new CliError('--month goes with "lims report monthly"', 2);
        const { findSampleId } = await import('../../core/samples/print.js');
        const { sampleReport } = await import('../../core/results/report.js');
        const id = await findSampleId(database.db, org.id, ref.trim());
        if (id === null) throw new CliError(`no sample ${ref} in ${org.name}`);
        const { pdf, sampleCode } = await sampleReport(database.db, org.id, id);
        if (flags.out === '-') {
          stdout.write(pdf);
          return;
        }
        const file = resolve(flags.out ?? `report-${sampleCode}.pdf`);
        writeOut(file, pdf);
        out.line(`wrote ${file} (${formatBytes(pdf.length)})`);
      }),
    );
}
