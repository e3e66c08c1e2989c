import { endPortalSessionsOf, portalAccessOf, upsertPortalAccess } from './repository.js';
import { randomInt } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import { actorHasPermission } from '../users/service.js';
import { getBill, billPdfById } from '../billing/service.js';
import { hashPassword } from '../auth/service.js';
import { findPatient } from '../patients/repository.js';
import { PORTAL_PIN_LENGTH, type PortalPinIssued, type PortalPinStatus } from '../../shared/schemas/portal.js';

/** Digits of a phone number as the portal compares them: the last 10 (drops +91, spaces, dashes). */
export function mobileKey(phone: string | null | undefined): string {
  return (phone ?? '').replace(/\D/g, '').slice(-10);
}

/** A uniformly random PIN from the CSPRNG, leading zeros kept. */
export function randomPin(): string {
  return String(randomInt(0, 10 ** PORTAL_PIN_LENGTH)).padStart(PORTAL_PIN_LENGTH, '0');
}

/**
 * Issues a new portal PIN (or replaces the old one: a reset), returned in clear this once; only its
 * scrypt hash is stored. A reset also ends the patient's portal sessions. The audit row names the
 * patient and whether it was a reset, never the PIN.
 */
export async function issuePortalPin(db: Db, actor: Actor, patientId: number): Promise<PortalPinIssued> {
  const pin = randomPin();
  // Hashing is slow on purpose; do it before taking the write lock.
  const pinHash = await hashPassword(pin);
  return db.transaction().execute(async (trx) => {
    const patient = await findPatient(trx, actor.organizationId, patientId);
    if (!patient) throw new NotFoundError('Patient', patientId);
    if (mobileKey(patient.phone).length < 7) {
      throw new ConflictError(
        `${patient.first_name} ${patient.last_name} has no mobile number; add one before issuing a portal PIN (patients sign in with it)`,
        'PATIENT_HAS_NO_MOBILE',
      );
    }
    const before = await portalAccessOf(trx, patientId);
    const issuedAt = nowIso();
    await upsertPortalAccess(trx, {
      patient_id: patientId,
      organization_id: actor.organizationId,
      pin_hash: pinHash,
      issued_by: actor.userId,
      issued_at: issuedAt,
    });
    const ended = await endPortalSessionsOf(trx, patientId);
    await writeAudit(trx, actor, {
      action: before ? 'update' : 'create',
      entity: 'portal_access',
      entityId: patientId,
      oldValues: before ? { issued_at: before.issued_at } : null,
      newValues: {
        patient_id: patient.patient_code,
        issued_at: issuedAt,
        reset: before !== undefined,
        sessions_ended: ended,
      },
    });
    return { pin, issued_at: issuedAt, reset: before !== undefined };
  });
}

export async function portalPinStatus(db: Db, organizationId: number, patientId: number): Promise<PortalPinStatus> {
  const patient = await findPatient(db, organizationId, patientId);
  if (!patient) throw new NotFoundError('Patient', patientId);
  const row = await portalAccessOf(db, patientId, organizationId);
  return { issued: row !== undefined, issued_at: row?.issued_at ?? null };
}

/**
 * The bill slip with the patient's portal sign-in: a new PIN is issued (replacing any earlier one,
 * audited) and printed with the portal address. Only staff who may manage patients issue PINs.
 */
export async function billPdfWithPortalPin(
  db: Db,
  actor: Actor,
  billId: number,
  portalUrl: string,
): Promise<{ pdf: Buffer; billNumber: string }> {
  if (!(await actorHasPermission(db, actor, 'manage_patients')))
    throw new ForbiddenError('Issuing a portal PIN needs the manage_patients permission');
  const bill = await getBill(db, actor.organizationId, billId);
  const { pin } = await issuePortalPin(db, actor, bill.patient_id);
  return billPdfById(db, actor.organizationId, billId, { url: portalUrl, pin });
}
