import type { Listeners } from '../events.js';
import { ConflictError } from '../errors.js';
import { countResultsOfSample } from './summary-repository.js';

/** A sample with results stays: it is rejected instead, so its results keep their tube. */
export const resultsListeners: Listeners = {
  'sample.deleting': async (trx, _actor, { sample }) => {
    if ((await countResultsOfSample(trx, sample.id)) > 0)
      throw new ConflictError(`Sample ${sample.code} has results; reject it instead of deleting it`, 'IN_USE');
  },
};
