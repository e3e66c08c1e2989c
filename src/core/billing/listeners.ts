import type { Listeners } from '../events.js';
import { ConflictError } from '../errors.js';
import { countBillsOfPatient } from './repository.js';

/** A patient with bills stays: the bills are the lab's money record. */
export const billingListeners: Listeners = {
  'patient.deleting': async (trx, _actor, { patient }) => {
    const bills = await countBillsOfPatient(trx, patient.id);
    if (bills > 0)
      throw new ConflictError(
        `${patient.first_name} ${patient.last_name} has ${bills} bill(s); a patient with bills cannot be deleted`,
        'IN_USE',
      );
  },
};
