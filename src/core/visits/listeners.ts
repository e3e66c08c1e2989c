import type { Listeners } from '../events.js';
import { cancelVisitsOfBill, recordVisitForBill } from './service.js';

/** A bill with a doctor is a consultation; a cancelled or deleted bill's visits are cancelled. */
export const visitsListeners: Listeners = {
  'bill.created': async (trx, actor, { bill }) => {
    await recordVisitForBill(trx, actor, bill);
  },
  'bill.cancelled': (trx, actor, { billId, reason }) => cancelVisitsOfBill(trx, actor, billId, reason),
};
