import type { Listeners } from '../events.js';
import { assertMayRequireTwoFactor, endSessionsWithoutTwoFactor } from './service.js';

/**
 * Two-factor sign-in made mandatory: refused to an administrator without an authenticator of their
 * own, and once saved, every session that began on a password alone ends.
 */
export const twoFactorListeners: Listeners = {
  'settings.changing': async (trx, actor, change) => {
    if (change.turnedOn.includes('twoFactorAuth')) await assertMayRequireTwoFactor(trx, actor);
  },
  'lab.two_factor_required': async (trx, actor) => {
    await endSessionsWithoutTwoFactor(trx, actor);
  },
};
