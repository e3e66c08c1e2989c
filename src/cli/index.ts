// The `lims` command: bin/lims.js imports this file. The work is in program.ts so tests can run it in-process.
import { runCli } from './program.js';

process.exitCode = await runCli(process.argv);
