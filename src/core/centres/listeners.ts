import type { Listeners } from '../events.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, ValidationError } from '../errors.js';
import { centreHold } from './hold.js';
import {
  billOfSample,
  breachMode,
  centreOfPayer,
  findCentreRow,
  linkPatient,
  openApproval,
  useApproval,
} from './repository.js';

/**
 * A bill charged to a centre's payer: its patient becomes the centre's, and the bill is refused
 * while the centre is on hold (its balance, this bill included, past its limit, or an older bill
 * past its credit days) unless the lab lets an approver allow it and a manager did, for this bill.
 */
async function centreBill(trx: Db, actor: Actor, bill: { id: number; payer_id: number | null; patient_id: number }) {
  if (bill.payer_id === null) return;
  const centre = await centreOfPayer(trx, actor.organizationId, bill.payer_id);
  if (!centre) return;
  const hold = await centreHold(trx, centre, bill.id);
  if (hold.on_hold) {
    const refusal = `A new bill for ${centre.name} is refused: ${hold.reason}`;
    if ((await breachMode(trx, actor.organizationId)) !== 'approver')
      throw new ConflictError(refusal, 'CENTRE_ON_HOLD');
    const approval = await openApproval(trx, actor.organizationId, centre.id);
    if (!approval)
      throw new ConflictError(
        `${refusal.replace(/ Pay the statement to lift the hold\.$/, '')} A manager may approve the next bill on the Centres screen.`,
        'CENTRE_APPROVAL_NEEDED',
      );
    const at = nowIso();
    await useApproval(trx, approval.id, bill.id, at);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'centre_approval',
      entityId: approval.id,
      oldValues: { bill_id: null, used_at: null },
      newValues: { bill_id: bill.id, used_at: at },
    });
  }
  await linkPatient(trx, actor.organizationId, centre.id, bill.patient_id, nowIso());
}

export const centresListeners: Listeners = {
  /** A centre's login is bound to a centre of its lab. */
  'user.binding_centre': async (trx, actor, { centreId }) => {
    if (!(await findCentreRow(trx, actor.organizationId, centreId)))
      throw ValidationError.field('centre_id', `Unknown centre ${centreId}`);
  },
  'bill.created': (trx, actor, { bill }) => centreBill(trx, actor, bill),
  /** A report of a centre's bill is held while the centre is on hold, with the reason. */
  'report.releasing': async (trx, actor, { sampleId, sampleCode }) => {
    const bill = await billOfSample(trx, actor.organizationId, sampleId);
    if (!bill?.payer_id) return;
    const centre = await centreOfPayer(trx, actor.organizationId, bill.payer_id);
    if (!centre) return;
    const hold = await centreHold(trx, centre);
    if (hold.on_hold)
      throw new ConflictError(
        `The report of sample ${sampleCode} is held: its centre ${centre.name} is on hold. ${hold.reason} Staff may release the report with a reason.`,
        'REPORT_HELD_CENTRE',
      );
  },
};
