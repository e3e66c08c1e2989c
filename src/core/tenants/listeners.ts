import type { Listeners } from '../events.js';
import { activatePendingLab } from './service.js';

/** A lab whose administrator had not yet set a password becomes active when they accept their invitation. */
export const tenantsListeners: Listeners = {
  'invitation.accepted': (trx, actor, { organizationId }) => activatePendingLab(trx, actor, organizationId),
};
