import type { Db } from '../db/connection.js';
import { labSettings } from '../settings/service.js';
import { stateOfGstin } from '../../shared/gst.js';

/**
 * Lab GSTIN and state, and the place of supply: the recipient's state when known, else the lab's.
 * A bill is taxed by it when it is made (its payer is the recipient; a patient is in the lab's
 * state) and an invoice splits the tax by it, so the two agree to the paisa.
 */
export async function taxParties(db: Db, organizationId: number, recipientState: string | null) {
  const s = await labSettings(db, organizationId);
  const labState = s.gstStateCode ?? stateOfGstin(s.gstin);
  const place = recipientState ?? labState;
  return { labGstin: s.gstin, labState, place, interState: !!labState && !!place && place !== labState };
}

/** The recipient's GST state of a payer: its state code, else its GSTIN's. */
export function payerState(payer: { state_code: string | null; gstin: string | null }): string | null {
  return payer.state_code ?? stateOfGstin(payer.gstin);
}
