import type { Listeners } from '../events.js';
import { nowIso } from '../context.js';
import { linkReleasedReport } from './release.js';
import { queueReport, releaseHeldForBill } from './queue.js';
import { releaseHeldOf } from './repository.js';

/**
 * A released report (or its amended version) gets its link and its messages in the releasing
 * transaction; a report that waited for a critical call goes with the call; one held for its bill
 * goes with the payment that clears it, or when staff release it.
 */
export const reportDeliveryListeners: Listeners = {
  'sample.completed': async (trx, actor, { sampleId }) => {
    const now = nowIso();
    await linkReleasedReport(trx, actor.organizationId, sampleId, now);
    await queueReport(trx, actor.organizationId, sampleId, now);
  },
  'result.critical_called': async (trx, actor, { sampleId }) => {
    await queueReport(trx, actor.organizationId, sampleId, nowIso());
  },
  'payment.received': async (trx, actor, { billId }) => {
    await releaseHeldForBill(trx, actor.organizationId, billId, nowIso());
  },
  'report.hold_released': async (trx, actor, { sampleId }) => {
    await releaseHeldOf(trx, actor.organizationId, [sampleId], nowIso());
  },
};
