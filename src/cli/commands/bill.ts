import { formatBytes } from '../../shared/bytes.js';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { NotFoundError } from '../../core/errors.js';
import { withLab } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';
import { FileSink, cannotWrite, writeStdout } from '../sinks.js';

interface PrintFlags {
  out?: string;
}

export function registerBill(program: Command, out: Output, stdout: NodeJS.WritableStream & { isTTY?: boolean }): void {
  const bill = program.command('bill').description('outpatient bills');

  bill
    .command('print')
    .description('write a bill as PDF (the same document the web UI prints)')
    .argument('<bill_number>', 'the bill number, e.g. OPB202611211930')
    .option(
      '-o, --out <file>',
      'PDF file to write; "-" for stdout (default: stdout when piped, else <bill_number>.pdf here)',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ lims bill print OPB202611211930
  $ lims bill print OPB202611211930 --out /tmp/bill.pdf
  $ lims bill print OPB202611211930 | lp
  $ lims bill print OPB202611211930 --out - > bill.pdf

Without --out the PDF goes to standard output when it is a pipe or a file, and to
<bill_number>.pdf in the current folder on a terminal (the file name is said).`,
    )
    .action((billNumber: string, flags: PrintFlags, cmd: Command) =>
      withLab(cmd, async ({ database, org }) => {
        const { billPdfByNumber } = await import('../../core/billing/print.js');
        let pdf: Buffer;
        let number: string;
        try {
          ({ pdf, billNumber: number } = await billPdfByNumber(database.db, org.id, billNumber.trim()));
        } catch (err) {
          if (err instanceof NotFoundError)
            throw new CliError(`no bill numbered ${billNumber} in ${org.name}`, 1, { cause: err });
          throw err;
        }
        // Piped (lp, a file): the PDF itself. On a terminal, binary would garble the screen: a file, named.
        if (flags.out === '-' || (flags.out === undefined && stdout.isTTY !== true)) {
          await writeStdout(stdout, pdf);
          return;
        }
        const file = resolve(flags.out ?? `${number}.pdf`);
        const sink = new FileSink(file);
        try {
          await new Promise<void>((done, fail) => {
            sink.once('error', fail);
            sink.end(pdf, (err?: Error | null) => (err ? fail(err) : done()));
          });
          sink.commit();
        } catch (err) {
          sink.discard();
          throw cannotWrite(file, err);
        }
        out.line(`wrote ${file} (${formatBytes(pdf.length)})`);
      }),
    );
}
