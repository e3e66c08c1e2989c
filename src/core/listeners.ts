import type { Listeners } from './events.js';
import { billingListeners } from './billing/listeners.js';
import { invoicesListeners } from './invoices/bill-lock.js';
import { visitsListeners } from './visits/listeners.js';
import { samplesListeners } from './samples/listeners.js';
import { resultsListeners } from './results/listeners.js';
import { portalListeners } from './portal/report-ready.js';
import { interopOutListeners } from './interop-out/listeners.js';
import { reportsListeners } from './reports/listeners.js';
import { twoFactorListeners } from './two-factor/listeners.js';
import { messagingListeners } from './messaging/listeners.js';
import { tenantsListeners } from './tenants/listeners.js';
import { autoverifyListeners } from './autoverify/listeners.js';
import { homeCollectionListeners } from './home-collection/listeners.js';
import { reportDeliveryListeners } from './report-delivery/listeners.js';
import { centresListeners } from './centres/listeners.js';

/**
 * Who reacts to the events of src/core/events.ts, in the order they run: an invoice's hold on a
 * bill is checked before anything reacts to its change; a bill's consultation
 * becomes a visit before its tubes are ordered, and a cancelled bill's visits are cancelled before
 * its tubes are withdrawn; a settings change is checked against one's own authenticator before
 * the notification channels. A collection centre's hold refuses its bill before the bill's visit
 * and tubes are made. Autoverification comes last: a release it makes announces
 * `sample.completed`, which the features above handle as they would a person's. A feature that
 * reacts to another adds a `listeners.ts` of its own and
 * one line here, instead of being called by name from the feature that announces.
 */
export const LISTENERS: readonly Listeners[] = [
  billingListeners,
  invoicesListeners,
  centresListeners,
  visitsListeners,
  samplesListeners,
  resultsListeners,
  portalListeners,
  reportDeliveryListeners,
  interopOutListeners,
  reportsListeners,
  twoFactorListeners,
  messagingListeners,
  tenantsListeners,
  homeCollectionListeners,
  autoverifyListeners,
];
