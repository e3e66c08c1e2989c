import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { findBillRow } from '../billing/repository.js';
import { getOrganization, settingsOf } from '../settings/service.js';
import { findSampleRow } from '../samples/repository.js';
import { findPatient } from '../patients/repository.js';
import { findUser } from '../users/repository.js';
import { portalAccessOf } from './repository.js';
import { queueReportReady, reportNotificationsOn } from '../messaging/service.js';
import { reportHead, uncalledCriticals } from '../results/entry-repository.js';
import { doctorTitledName } from '../../shared/person-name.js';
import { linkMessageRecipients } from '../report-delivery/service.js';
import type { Listeners } from '../events.js';

/**
 * A report ready to leave the lab (every ordered test verified, every critical value telephoned):
 * with the lab's reportNotifications on, the patient and the bill's referring doctor are emailed
 * and sent an SMS (docs/decisions.md, "Lab email and SMS"), once per sample. Runs when a sample
 * completes by verification and when a critical call is logged; does nothing before that. Whoever
 * gets the report's link message instead (report delivery) is not told twice.
 */
export async function announceReportReady(trx: Db, actor: Actor, sampleId: number): Promise<void> {
  const org = await getOrganization(trx, actor.organizationId);
  if (!(await reportNotificationsOn(trx, org))) return;
  const settings = settingsOf(org);
  const head = await reportHead(trx, actor.organizationId, sampleId);
  if (!head || head.status !== 'completed' || !head.reported_at) return;
  if ((await uncalledCriticals(trx, sampleId)).length) return;
  const sample = await findSampleRow(trx, actor.organizationId, { id: sampleId });
  const patient = await findPatient(trx, actor.organizationId, head.patient_id);
  if (!sample || !patient) return;
  const bill = sample.bill_id === null ? undefined : await findBillRow(trx, actor.organizationId, sample.bill_id);
  const doctor = bill?.doctor_id ? await findUser(trx, actor.organizationId, bill.doctor_id) : undefined;
  const due = head.bill_cancelled_at ? 0 : (head.final_amount_paise ?? 0) - (head.paid_paise ?? 0);
  const byLink = await linkMessageRecipients(trx, actor.organizationId, sampleId);
  await queueReportReady(trx, org, {
    byLink,
    sampleId,
    sampleCode: head.sample_code,
    patient: {
      name: `${patient.first_name} ${patient.last_name}`.trim(),
      firstName: patient.first_name,
      code: patient.patient_code,
      email: patient.email,
      phone: patient.phone,
      portal: (await portalAccessOf(trx, patient.id, actor.organizationId)) !== undefined,
    },
    doctor:
      doctor && doctor.is_active === 1
        ? { name: doctorTitledName(doctor), email: doctor.email, phone: doctor.phone }
        : null,
    heldForBill: settings.holdReportsUntilPaid && due > 0 && !head.released_at ? head.bill_number : null,
  });
}

/** A released report, or the critical call it waited for, is announced to the patient and doctor. */
export const portalListeners: Listeners = {
  'sample.completed': (trx, actor, { sampleId }) => announceReportReady(trx, actor, sampleId),
  'result.critical_called': (trx, actor, { sampleId }) => announceReportReady(trx, actor, sampleId),
};
