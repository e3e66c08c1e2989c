import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { monthField } from '../../shared/schemas/accounts.js';
import { withLab } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import type { Output } from '../output.js';

/** `lims export tally|gstr1|einvoice --month YYYY-MM`: the accountant's month, for cron. */
export const ACCOUNT_EXPORTS = ['tally', 'gstr1', 'einvoice'] as const;

export interface AccountsExportFlags {
  month?: string;
  out?: string;
  format?: string;
  from?: string;
  to?: string;
  where: string[];
}

export async function runAccountsExport(
  kind: (typeof ACCOUNT_EXPORTS)[number],
  flags: AccountsExportFlags,
  cmd: Command,
  out: Output,
  stdout: NodeJS.WritableStream,
): Promise<void> {
  if (flags.month === undefined) throw new UsageError(`--month is required: lims export ${kind} --month YYYY-MM`);
  const m = monthField.safeParse(flags.month.trim());
  if (!m.success) throw new UsageError(`--month: ${flags.month} is not a month as YYYY-MM`);
  for (const f of ['from', 'to'] as const)
    if (flags[f] !== undefined) throw new UsageError(`--${f} ${flags[f]}: ${kind} covers one --month`);
  if (flags.where.length) throw new UsageError(`--where ${flags.where[0]}: ${kind} takes no filters`);
  const csv = flags.format === 'csv';
  if (flags.format !== undefined && !(kind === 'gstr1' && csv) && flags.format !== (kind === 'tally' ? 'xml' : 'json'))
    throw new UsageError(
      `--format ${flags.format}: ${kind} is ${kind === 'tally' ? 'XML' : kind === 'gstr1' ? 'json, or csv (a folder of sheets)' : 'JSON'}`,
    );
  if (csv && !flags.out) throw new UsageError('--format csv: give --out, the folder for the GSTR-1 sheets');
  await withLab(cmd, async ({ database, actor }) => {
    const { accountsExport } = await import('../../core/accounts/service.js');
    const files = await accountsExport(database.db, actor, csv ? 'gstr1-csv' : kind, m.data);
    const write = (file: string, body: string) => {
      try {
        writeFileSync(file, body);
      } catch (err) {
        throw new CliError(`--out: cannot write ${file}: ${(err as Error).message}`, 1, { cause: err });
      }
      out.line(`wrote ${file}`);
    };
    if (csv) {
      const dir = resolve(flags.out!);
      mkdirSync(dir, { recursive: true });
      for (const f of files) write(join(dir, f.name), f.body);
      return;
    }
    const [file] = files;
    if (!flags.out || flags.out === '-') stdout.write(file!.body);
    else write(resolve(flags.out), file!.body);
  });
}
