import { tmpdir } from 'node:os';
import type { Database_ } from '../../src/core/db/connection.js';
import { createScheduler, type Scheduler } from '../../src/core/scheduler.js';
import type { SenderLog } from '../../src/core/messaging/sender.js';
import { serverJobs } from '../../src/server/jobs.js';

/**
 * Some of lims serve's jobs (src/server/jobs.ts), by name, on a scheduler of their own with a short
 * period, as the server runs them. `errors` collects what the scheduler logs of a failed run.
 */
export function startServerJobs(
  database: Database_,
  names: readonly string[],
  opts: { periodMs?: number; log?: SenderLog; allowPrivateOutbound?: boolean } = {},
): { scheduler: Scheduler; errors: object[] } {
  const errors: object[] = [];
  const quiet = () => undefined;
  const log = opts.log ?? { info: quiet, warn: quiet, error: quiet };
  const all = serverJobs({
    database: () => database,
    log,
    backupsDir: tmpdir(),
    dataDir: tmpdir(),
    allowPrivateOutbound: opts.allowPrivateOutbound ?? false,
  });
  const unknown = names.filter((n) => !all.some((j) => j.name === n));
  if (unknown.length) throw new Error(`No server job is named ${unknown.join(', ')}`);
  const jobs = all
    .filter((j) => names.includes(j.name))
    .map((j) => ({ ...j, firstDelayMs: 0, periodMs: opts.periodMs ?? 40 }));
  const scheduler = createScheduler(jobs, { error: (obj) => errors.push(obj) });
  scheduler.start();
  return { scheduler, errors };
}
