import type { Listeners } from '../events.js';
import { restartRollups } from './rollups/days.js';

/** Reports react to a lab's time zone changing: the rollups are kept per lab day, and its days moved. */
export const reportsListeners: Listeners = {
  'lab.timezone_changed': (trx, _actor, e) => restartRollups(trx, e.organizationId),
};
