import type { Db } from './connection.js';
import { billsOfPayer } from './joins.js';

/**
 * A lab's bills, each joined to its patient (`b`, `p`): where every reader that shows a bill with
 * whose it is starts (the bills list, the overdue sweep, a centre's portal, the audit trail, the
 * custom report), as a lab's samples start from samplesWithPatient (joins.ts).
 */
export function billsWithPatient(db: Db, organizationId: number) {
  return db
    .selectFrom('bills as b')
    .innerJoin('patients as p', 'p.id', 'b.patient_id')
    .where('b.organization_id', '=', organizationId);
}

/** A payer's bills that count on its account (billsOfPayer) made in [fromIso, toIso): a statement's or an invoice's period. */
export function payerBillsMadeIn(db: Db, organizationId: number, payerId: number, fromIso: string, toIso: string) {
  return billsOfPayer(db, organizationId, payerId)
    .where('b.created_at', '>=', fromIso)
    .where('b.created_at', '<', toIso);
}
