import { Command, CommanderError, Option } from 'commander';
import { packageVersion } from '../core/version.js';
import { registerAudit } from './commands/audit.js';
import { registerBackup } from './commands/backup.js';
import { registerDb } from './commands/db.js';
import { registerData } from './commands/data.js';
import { registerBill } from './commands/bill.js';
import { registerSamples } from './commands/samples.js';
import { registerReport } from './commands/report.js';
import { registerServe } from './commands/serve.js';
import { registerSetup } from './commands/setup.js';
import { registerUser } from './commands/user.js';
import { registerInterface } from './commands/interface.js';
import { CliError } from './errors.js';
import { nonEmpty } from './flags.js';
import { Output, type Streams } from './output.js';
import { isPromptCancelled } from './prompts.js';

/** Exit codes: 0 done, 1 the command failed, 2 the command line was wrong, 130 stopped by Ctrl+C. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** 128 + SIGINT, as a shell reports a program Ctrl+C stopped: scripts tell "stopped" from "failed". */
export const EXIT_INTERRUPTED = 130;

export function buildProgram(out: Output, streams: Streams): Command {
  const program = new Command('lims');
  program
    .description('laboratory information management and outpatient billing')
    .version(packageVersion(), '-V, --version', 'print the lims version')
    .addOption(
      new Option('--data-dir <dir>', 'where the lab data lives (default $LIMS_DATA_DIR, else ~/.lims)').argParser(
        nonEmpty('The data dir cannot be empty.'),
      ),
    )
    .addOption(
      new Option(
        '--database-url <url>',
        'the lab database: postgres://user@host:5432/name or sqlite:PATH (default $LIMS_DATABASE_URL, else the URL lims setup stored in the data dir, else <data dir>/lims.db)',
      ).argParser(nonEmpty('The database URL cannot be empty.')),
    )
    .option('--verbose', 'print stack traces with errors')
    .showSuggestionAfterError(true)
    // Throw instead of exiting, so runCli decides the exit code and tests can run in-process.
    .exitOverride()
    .configureOutput({
      writeOut: (s) => streams.stdout.write(s),
      writeErr: (s) => streams.stderr.write(s),
      // Commander's "error: ..." lines become the one-line "lims: ..." every error uses.
      outputError: (s, write) =>
        write(`lims: ${s.replace(/^error: /, '').replace(/\n\(Did you mean/, ' (did you mean')}`),
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 done, 1 the command failed, 2 the command line was wrong, 130 stopped with Ctrl+C.
Run "lims <command> --help" for a command's flags and examples.`,
    );
  // Subcommands inherit the settings above (exitOverride, output), so they are added last.
  registerSetup(program, out);
  registerServe(program, out);
  registerUser(program, out);
  registerAudit(program, out);
  registerInterface(program, out);
  registerBill(program, out, streams.stdout);
  registerSamples(program, out, streams.stdout);
  registerReport(program, out, streams.stdout);
  registerBackup(program, out);
  registerDb(program, out, streams.stdout);
  registerData(program, out, streams);
  return program;
}

/** Runs one command line and returns the exit code; never calls process.exit itself. */
export async function runCli(argv: readonly string[], streams: Streams = process): Promise<number> {
  const out = new Output(streams);
  const program = buildProgram(out, streams);
  try {
    await program.parseAsync([...argv]);
    return EXIT_OK;
  } catch (err) {
    return report(err, out, program.opts<{ verbose?: boolean }>().verbose ?? argv.includes('--verbose'));
  }
}

function report(err: unknown, out: Output, verbose: boolean): number {
  if (err instanceof CommanderError) {
    // Commander has already printed its message (or the help / version text).
    // Asked-for help and --version end with 0; anything else commander stops on is a usage error.
    return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (isPromptCancelled(err)) {
    out.error('cancelled; nothing was changed');
    return EXIT_INTERRUPTED;
  }
  if (err instanceof CliError) {
    out.error(err.message);
    // The underlying error's stack says where it really failed; ours only where it was reworded.
    const origin = err.cause instanceof Error ? err.cause : err;
    if (verbose && origin.stack) out.detail(origin.stack);
    return err.exitCode;
  }
  // Domain errors (not found, conflict, forbidden) and anything unexpected: one line, exit 1.
  out.error(err instanceof Error ? err.message : String(err));
  if (verbose && err instanceof Error && err.stack) out.detail(err.stack);
  return EXIT_FAILURE;
}
