import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { NotFoundError } from '../errors.js';
import { findPatient } from '../patients/repository.js';
import type { Consent, ConsentUpdate } from '../../shared/schemas/report-delivery.js';
import { consentRow, saveConsentRow } from './repository.js';

/**
 * A patient's say in how reports reach them: the preferred channel, the consent (recorded with who
 * took it and when; withdrawn keeps that record and adds when), and a number that may be someone
 * else's (a parent for a child). No consent, no message: nothing is sent to a patient without a row
 * here that says yes.
 */

type Row = NonNullable<Awaited<ReturnType<typeof consentRow>>>;

function toConsent(patientId: number, row: Row | undefined): Consent {
  const given = !!row?.consent_at && !row.withdrawn_at;
  return {
    patient_id: patientId,
    channel: row?.channel ?? 'none',
    consent: given,
    recipient_phone: row?.recipient_phone ?? null,
    consent_at: row?.consent_at ?? null,
    consent_by_name: row?.by_first ? `${row.by_first} ${row.by_last ?? ''}`.trim() : null,
    withdrawn_at: row?.withdrawn_at ?? null,
  };
}

export async function getConsent(db: Db, organizationId: number, patientId: number): Promise<Consent> {
  const patient = await findPatient(db, organizationId, patientId);
  if (!patient) throw new NotFoundError('Patient', patientId);
  return toConsent(patientId, await consentRow(db, organizationId, patientId));
}

/** Whether the patient said yes and has not withdrawn it, and how they want to hear. */
export async function consentOf(db: Db, organizationId: number, patientId: number) {
  const row = await consentRow(db, organizationId, patientId);
  if (!row || !row.consent_at || row.withdrawn_at || row.channel === 'none') return null;
  return { channel: row.channel, recipientPhone: row.recipient_phone };
}

/** Records the channel and consent as staff took them; consent given again after a withdrawal starts afresh. */
export async function saveConsent(db: Db, actor: Actor, patientId: number, input: ConsentUpdate): Promise<Consent> {
  return db.transaction().execute(async (trx) => {
    const patient = await findPatient(trx, actor.organizationId, patientId);
    if (!patient) throw new NotFoundError('Patient', patientId);
    const before = await consentRow(trx, actor.organizationId, patientId);
    const wasGiven = !!before?.consent_at && !before.withdrawn_at;
    const now = nowIso();
    const consentAt = input.consent ? (wasGiven ? before!.consent_at : now) : (before?.consent_at ?? null);
    const consentBy = input.consent ? (wasGiven ? before!.consent_by : actor.userId) : (before?.consent_by ?? null);
    const withdrawnAt = input.consent ? null : wasGiven ? now : (before?.withdrawn_at ?? null);
    const withdrawnBy = input.consent ? null : wasGiven ? actor.userId : (before?.withdrawn_by ?? null);
    await saveConsentRow(
      trx,
      {
        patient_id: patientId,
        organization_id: actor.organizationId,
        channel: input.channel,
        recipient_phone: input.recipient_phone ?? null,
        consent_at: consentAt,
        consent_by: consentBy,
        withdrawn_at: withdrawnAt,
        withdrawn_by: withdrawnBy,
        updated_at: now,
      },
      before !== undefined,
    );
    await writeAudit(trx, actor, {
      action: before ? 'update' : 'create',
      entity: 'report_consent',
      entityId: patientId,
      oldValues: before
        ? { channel: before.channel, consent: wasGiven, recipient_phone: before.recipient_phone ? '(set)' : null }
        : null,
      newValues: {
        patient: patient.patient_code,
        channel: input.channel,
        consent: input.consent,
        recipient_phone: input.recipient_phone ? '(set)' : null,
      },
    });
    return toConsent(patientId, await consentRow(trx, actor.organizationId, patientId));
  });
}
