import type { Listeners } from '../events.js';
import { amendOrderOfBill, orderSamplesForBill, withdrawOrderOfBill } from './orders.js';
import { insertDefaultLocations } from './repository.js';

/**
 * A bill's tubes follow its tests: ordered when it is stored, amended with it, withdrawn with it. A
 * new lab starts with the default storage locations.
 */
export const samplesListeners: Listeners = {
  'bill.created': async (trx, actor, { bill, lines }) => {
    await orderSamplesForBill(trx, actor, bill, lines);
  },
  'bill.amended': (trx, actor, { bill, added, removed, reason }) =>
    amendOrderOfBill(trx, actor, bill, { added, removed }, reason),
  'bill.cancelled': (trx, actor, { billId, reason }) => withdrawOrderOfBill(trx, actor, billId, reason),
  'lab.created': (trx, _actor, { organizationId, at }) => insertDefaultLocations(trx, organizationId, at),
};
