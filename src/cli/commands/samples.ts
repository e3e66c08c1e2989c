import { formatBytes } from '../../shared/bytes.js';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConflictError } from '../../core/errors.js';
import { withLab } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';

interface LabelFlags {
  out?: string;
}

export function registerSamples(program: Command, out: Output, stdout: NodeJS.WritableStream): void {
  const samples = program.command('samples').description('collected samples');

  samples
    .command('label')
    .description('write a 50 x 25 mm tube label as PDF (the same label the web UI prints)')
    .argument('<sample_id>', 'the sample ID (e.g. SMP202611210001), its barcode, or its database id')
    .option('-o, --out <file>', 'PDF file to write (default: label-<sample_id>.pdf here; "-" for stdout)')
    .addHelpText(
      'after',
      `
Examples:
  $ lims samples label SMP202611210001
  $ lims samples label SMP202611210001 --out /tmp/label.pdf
  $ lims samples label BCBL12345678901 --out - | lp -o media=Custom.50x25mm`,
    )
    .action((ref: string, flags: LabelFlags, cmd: Command) =>
      withLab(cmd, async ({ database, org }) => {
        const { findSampleId, labelPdfForSample } = await import('../../core/samples/print.js');
        const id = await findSampleId(database.db, org.id, ref.trim());
        if (id === null) throw new CliError(`no sample ${ref} in ${org.name}`);
        let pdf: Buffer;
        let code: string;
        try {
          ({ pdf, sampleCode: code } = await labelPdfForSample(database.db, org.id, id));
        } catch (err) {
          // A pending sample has no barcode yet: say so in one line, like every other failure.
          if (err instanceof ConflictError) throw new CliError(err.message, 1, { cause: err });
          throw err;
        }
        if (flags.out === '-') {
          stdout.write(pdf);
          return;
        }
        const file = resolve(flags.out ?? `label-${code}.pdf`);
        try {
          writeFileSync(file, pdf);
        } catch (err) {
          throw new CliError(`--out: cannot write ${file}: ${(err as Error).message}`, 1, { cause: err });
        }
        out.line(`wrote ${file} (${formatBytes(pdf.length)})`);
      }),
    );
}
