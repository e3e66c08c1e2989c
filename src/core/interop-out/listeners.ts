import type { Listeners } from '../events.js';
import { queueReportOut } from './service.js';

/**
 * A released report (or the critical call it waited for) is queued for the lab's receivers; the
 * delivery job sends it after the transaction commits.
 */
export const interopOutListeners: Listeners = {
  'sample.completed': async (trx, actor, { sampleId }) => {
    await queueReportOut(trx, actor.organizationId, sampleId);
  },
  'result.critical_called': async (trx, actor, { sampleId }) => {
    await queueReportOut(trx, actor.organizationId, sampleId);
  },
};
