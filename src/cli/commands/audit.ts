import type { Command } from 'commander';
import { withDatabase } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';

export function registerAudit(program: Command, out: Output): void {
  const audit = program.command('audit').description('the audit trail of every change');

  audit
    .command('verify')
    .description('check that no audit row was altered, removed or inserted (exit 1 at the first broken row)')
    .addHelpText(
      'after',
      `
Every audit row carries a hash of its contents and of the row before it; verify recomputes the
whole chain. Run it from cron and alert on a non-zero exit.`,
    )
    .action((_flags: unknown, cmd: Command) =>
      withDatabase(cmd, async (database) => {
        const { verifyChain } = await import('../../core/audit/audit.js');
        const report = await verifyChain(database.db);
        if (!report.ok) {
          throw new CliError(
            `audit trail broken at row ${report.firstBrokenId ?? '?'}: ${report.reason ?? 'unknown reason'}`,
          );
        }
        out.line(`audit trail intact: ${report.checked} rows checked`);
      }),
    );
}
