import type { Listeners } from '../events.js';
import { onResultEntered } from './decide.js';

/** Autoverification judges every value stored on a result awaiting verification. */
export const autoverifyListeners: Listeners = {
  'result.entered': onResultEntered,
};
