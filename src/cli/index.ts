// The `lims` command: bin/lims.js imports this file. The work is in program.ts so tests can run it in-process.
import { packageVersion } from '../core/version.js';

// Everything lims writes holds patient data (the database and its WAL, backups, exports, PDFs,
// import reports): readable by this user only, whatever the login's umask.
process.umask(0o077);

// Output piped into a program that stops reading (lims --help | head) is not an error of lims.
// A command that writes a file to standard output (export, bill print) listens itself and reports
// its failure (a full disk, the reader gone) as its one-line error, so then this stays out of the way.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (process.stdout.listenerCount('error') > 1) return;
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

// `lims --version` answers without loading every command (the server, PDF and database code take
// most of a second to load); any other command line goes through the full program.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(process.argv);
}
