import type { Db } from './connection.js';

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
