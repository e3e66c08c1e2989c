import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';

/**
 * Spending an advance: the money a patient left on account pays a later bill of theirs.
 * It is a ledger row of its own, kind 'advance', method 'advance': no money comes in (amount 0, no
 * value date, so neither revenue nor the cashier's closing counts it twice), advance_paise is minus
 * what was taken from the account, and the bill's paid_paise goes up by that much. So for every row
 * a bill's paid_paise is still the sum of amount less advance, and the patient's advance the sum of
 * advance_paise. Returning it to the account (before cancelling the bill) is a row of the same kind.
 */
export const sql = '';

const KIND_OLD = "CHECK (kind IN ('payment','refund'))";
const KIND_NEW = "CHECK (kind IN ('payment','refund','advance'))";
const AMOUNT_OLD = 'CHECK (amount_paise <> 0)';
const AMOUNT_NEW = "CHECK (amount_paise <> 0 OR kind = 'advance')";
const METHOD_OLD = "CHECK (method IN ('cash','card','upi','bank_transfer','cheque','insurance'))";
const METHOD_NEW = "CHECK (method IN ('cash','card','upi','bank_transfer','cheque','insurance','advance'))";

export function sqliteSteps(sqlite: Database.Database): void {
  rebuildTable(sqlite, 'payments', (create) => {
    for (const c of [KIND_OLD, AMOUNT_OLD, METHOD_OLD])
      if (!create.includes(c)) throw new Error(`021: payments ${c} not found`);
    return create.replace(KIND_OLD, KIND_NEW).replace(AMOUNT_OLD, AMOUNT_NEW).replace(METHOD_OLD, METHOD_NEW);
  });
}

export const postgres = /* sql */ `
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check ${KIND_NEW};
ALTER TABLE payments DROP CONSTRAINT payments_amount_paise_check;
ALTER TABLE payments ADD CONSTRAINT payments_amount_paise_check ${AMOUNT_NEW};
ALTER TABLE payments DROP CONSTRAINT payments_method_check;
ALTER TABLE payments ADD CONSTRAINT payments_method_check ${METHOD_NEW};
`;
