import type { Listeners } from '../events.js';
import { gateNotificationSwitches } from './service.js';

/** A notification switch is not turned on before its channel (mail server, SMS gateway) is set up. */
export const messagingListeners: Listeners = {
  'settings.changing': (trx, _actor, change) => gateNotificationSwitches(trx, change),
};
