import type { Listeners } from '../events.js';
import { ConflictError } from '../errors.js';
import { bookingsOfPatient } from './repository.js';

/** A patient with home visits booked stays: the bookings (and their tubes) name them. */
export const homeCollectionListeners: Listeners = {
  'patient.deleting': async (trx, actor, { patient }) => {
    const n = await bookingsOfPatient(trx, actor.organizationId, patient.id);
    if (n > 0)
      throw new ConflictError(
        `${patient.first_name} ${patient.last_name} has ${n} home collection booking(s); such a patient cannot be deleted`,
        'IN_USE',
      );
  },
};
