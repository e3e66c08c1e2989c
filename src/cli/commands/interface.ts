import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { connectionByName } from '../../core/interfaces/repository.js';
import { withDatabase } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';

/** Analyzer interfaces: run the listeners alone, or take a machine's captured file. */
export function registerInterface(program: Command, out: Output): void {
  const iface = program.command('interface').description("the lab machines' interfaces (ASTM, HL7)");

  iface
    .command('listen')
    .description('run the listeners of the enabled connections (without the web server) until stopped')
    .option(
      '--drop-root <dir>',
      "the folder under which labs' watched folders must lie, one per lab (default: <data dir>/drop)",
    )
    .addHelpText(
      'after',
      `
For a small always-on process next to the machine's PC when the lims server is elsewhere (with
--database-url pointing at the lab's PostgreSQL). lims serve runs the same listeners: do not run
both for the same connections. Ctrl-C stops it.`,
    )
    .action((flags: { dropRoot?: string }, cmd: Command) =>
      withDatabase(cmd, async (database, dir) => {
        const { startInterfaceListeners } = await import('../../core/interfaces/listen.js');
        const listeners = startInterfaceListeners(
          () => database.db,
          {
            info: (_o, msg) => out.line(msg),
            warn: (o, msg) => out.line(`warning: ${msg}`),
            error: (_o, msg) => out.line(`error: ${msg}`),
          },
          { dropRoot: resolve(flags.dropRoot ?? join(dir, 'drop')) },
        );
        await listeners.ready;
        out.line('listening for the enabled connections; Ctrl-C to stop');
        await new Promise<void>((resolveStop) => {
          const stop = () => resolveStop();
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        await listeners.stop();
      }),
    );

  iface
    .command('import')
    .description("take a machine's captured transcript or export file as if it had been sent")
    .argument('<file>', 'ASTM frames or records, or HL7 v2 messages')
    .requiredOption('--connection <name>', 'the connection (its code map and machine) the file came from')
    .addHelpText(
      'after',
      `
Examples:
  $ lims interface import xn550-2026-11-26.txt --connection "Sysmex XN-550"

Each message is stored in the message log and applied: results go to their samples (unverified),
anything unmatched to the Unmatched queue on Machine Integration. A frame that fails its checksum
makes the whole file refused.`,
    )
    .action((file: string, flags: { connection: string }, cmd: Command) =>
      withDatabase(cmd, async (database) => {
        const matches = await connectionByName(database.db, null, flags.connection);
        if (!matches.length) throw new CliError(`--connection: no connection is named ${flags.connection}`);
        if (matches.length > 1)
          throw new CliError(`--connection: ${matches.length} labs have a connection named ${flags.connection}`);
        let bytes: Buffer;
        try {
          bytes = readFileSync(resolve(file));
        } catch (err) {
          throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
        }
        const { importFile } = await import('../../core/interfaces/listeners.js');
        const r = await importFile(database.db, matches[0]!, bytes);
        if (!r.ok) throw new CliError(`${file}: ${r.error}`);
        out.line(
          `${r.messages} message(s): ${r.entered} result(s) entered, ${r.unmatched} unmatched` +
            (r.ignored ? `, ${r.ignored} ignored` : ''),
        );
      }),
    );
}
