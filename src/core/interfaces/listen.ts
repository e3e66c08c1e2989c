import type { Db } from '../db/connection.js';
import { createScheduler } from '../scheduler.js';
import { interfaceListeners, type InterfaceLog, type ListenerOptions } from './listeners.js';

/**
 * The listeners on a scheduler of their own, for `lims interface listen` and tests: the same jobs as
 * lims serve runs. `stop` ends the jobs, then the listeners.
 */
export function startInterfaceListeners(
  getDb: () => Db,
  log: InterfaceLog,
  opts: ListenerOptions = {},
): { stop: () => Promise<void>; ready: Promise<void> } {
  const listeners = interfaceListeners(getDb, log, opts);
  const scheduler = createScheduler(listeners.jobs, log);
  scheduler.start();
  return {
    ready: listeners.ready,
    stop: async () => {
      await scheduler.stop();
      await listeners.stop();
    },
  };
}
