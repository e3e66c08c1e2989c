import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import type { SampleRow } from '../samples/repository.js';
import { findBillRow } from '../billing/repository.js';
import { notify } from '../notifications/service.js';

/** The notifications results raise, written in the transaction that stores the value. */

const patientName = (s: SampleRow) => `${s.first_name} ${s.last_name}`.trim();

/** A stored value beyond the critical limits: validators and lab managers are told. */
export async function announceCritical(trx: Db, actor: Actor, sample: SampleRow, testName: string): Promise<void> {
  await notify(
    trx,
    actor.organizationId,
    { kind: 'critical_result', sampleCode: sample.sample_code, testName, patientName: patientName(sample) },
    { by: actor.userId },
  );
}

/** A verified result changed: validators, lab managers and the bill's referring doctor are told. */
export async function announceAmendment(
  trx: Db,
  actor: Actor,
  sample: SampleRow,
  testName: string,
  reason: string,
): Promise<void> {
  const bill = sample.bill_id === null ? undefined : await findBillRow(trx, actor.organizationId, sample.bill_id);
  await notify(
    trx,
    actor.organizationId,
    {
      kind: 'result_amended',
      sampleCode: sample.sample_code,
      testName,
      patientName: patientName(sample),
      reason,
      doctorId: bill?.doctor_id ?? null,
    },
    { by: actor.userId },
  );
}
