import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * `node rusage.js SCRIPT ARGS...`: runs SCRIPT (the lims launcher) in this process with ARGS and,
 * on exit, writes the process's peak resident memory and CPU time to $BENCH_RUSAGE_FILE (bench/transfer.ts).
 */
const [script, ...args] = process.argv.slice(2);
const out = process.env.BENCH_RUSAGE_FILE;
const usage = () => {
  const u = process.resourceUsage();
  return { maxRssKb: u.maxRSS, cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6 };
};
process.on('exit', () => {
  if (out) writeFileSync(out, JSON.stringify(usage()));
});
process.argv = [process.argv[0]!, script!, ...args];
await import(pathToFileURL(script!).href);
