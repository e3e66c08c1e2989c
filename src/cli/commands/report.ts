import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { findSampleId } from '../../core/samples/print.js';
import { sampleReport } from '../../core/results/report.js';
import { withLab } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';

interface ReportFlags {
  out?: string;
}

export function registerReport(program: Command, out: Output, stdout: NodeJS.WritableStream): void {
  program
    .command('report')
    .description('write the lab report of a sample as PDF (the same report the web UI and the patient portal give)')
    .argument('<sample_id>', 'the sample ID (e.g. SMP202611210001), its barcode, or its database id')
    .option('-o, --out <file>', 'PDF file to write (default: report-<sample_id>.pdf here; "-" for stdout)')
    .addHelpText(
      'after',
      `
Only verified results are printed as values; others show "Awaiting verification" or "Result awaited".

Examples:
  $ lims report SMP202611210001
  $ lims report SMP202611210001 --out /tmp/report.pdf
  $ lims report BCBL12345678901 --out - | lp`,
    )
    .action((ref: string, flags: ReportFlags, cmd: Command) =>
      withLab(cmd, async ({ database, org }) => {
        const id = await findSampleId(database.db, org.id, ref.trim());
        if (id === null) throw new CliError(`no sample ${ref} in ${org.name}`);
        const { pdf, sampleCode } = await sampleReport(database.db, org.id, id);
        if (flags.out === '-') {
          stdout.write(pdf);
          return;
        }
        const file = resolve(flags.out ?? `report-${sampleCode}.pdf`);
        try {
          writeFileSync(file, pdf);
        } catch (err) {
          throw new CliError(`--out: cannot write ${file}: ${(err as Error).message}`, 1, { cause: err });
        }
        out.line(`wrote ${file} (${pdf.length.toLocaleString('en-IN')} bytes)`);
      }),
    );
}
