import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { DomainError, TooManyRequestsError } from '../errors.js';
import { findUserByEmail } from '../users/repository.js';
import { dummyPasswordHash, verifyPassword, SignInLimits, staffAccountKey, waitText } from '../auth/service.js';
import { labSettings } from '../settings/service.js';
import type { Role } from '../../shared/roles.js';
import { labPermissions } from '../users/service.js';
import type { DiscountApproval } from '../../shared/schemas/bills.js';

/**
 * An approver's password is a sign-in: the same limits, kept apart from the sign-in page's. Made on
 * first use: auth's service reaches billing through its imports, so at this module's load the class
 * may not be defined yet (whichever of the two a process imports first decides).
 */
let approvalLimits: SignInLimits | undefined;
const limits = () =>
  (approvalLimits ??= new SignInLimits({ perPair: 5, perAddress: 30, backoffAfter: 10, maxBackoffSeconds: 30 }));

export interface ApprovedDiscount {
  effective_percent: number;
  ceiling_percent: number;
  approved_by: number | null;
  approved_by_email: string | null;
}

function ceilingOf(ceilings: Record<string, number>, role: Role): number {
  return Math.max(0, Math.min(100, ceilings[role] ?? 0));
}

/**
 * A bill whose effective discount is above the biller's ceiling (lab settings, per role) needs an
 * approver: a colleague who may create bills, whose own ceiling covers it, and who types their
 * password at the counter. Refused with 403 DISCOUNT_APPROVAL_REQUIRED (naming both figures) when
 * there is none; the approval goes into the bill's audit row.
 */
export async function checkDiscount(
  db: Db,
  actor: Actor,
  effectivePercent: number,
  approval: DiscountApproval | undefined,
): Promise<ApprovedDiscount> {
  const { discountCeilings } = await labSettings(db, actor.organizationId);
  // The command line and seeding act as the system: no counter, no ceiling.
  const ceiling = actor.role === 'system' ? 100 : ceilingOf(discountCeilings, actor.role);
  const base = { effective_percent: effectivePercent, ceiling_percent: ceiling };
  if (effectivePercent <= ceiling) return { ...base, approved_by: null, approved_by_email: null };
  if (!approval) {
    throw new DomainError(
      403,
      'DISCOUNT_APPROVAL_REQUIRED',
      `This bill is ${effectivePercent}% below the catalogue prices; your role may give up to ${ceiling}%. A colleague who may approve it signs it off with their password.`,
    );
  }
  const email = approval.approver_email.trim().toLowerCase();
  const ticket = limits().reserve(staffAccountKey(actor.organizationId, email), actor.ip ?? 'unknown');
  if (typeof ticket === 'number') {
    throw new TooManyRequestsError(`Too many wrong approver passwords. Try again in ${waitText(ticket)}.`, ticket);
  }
  try {
    const row = await findUserByEmail(db, actor.organizationId, email);
    const ok = row
      ? await verifyPassword(approval.approver_password, row.password_hash)
      : await verifyPassword(approval.approver_password, await dummyPasswordHash());
    if (!row || !ok || row.is_active !== 1 || row.organization_id !== actor.organizationId) {
      ticket.fail();
      throw new DomainError(403, 'APPROVAL_REFUSED', 'The approver email or password is wrong');
    }
    ticket.succeed();
    const role = row.role as Role;
    const approverCeiling = ceilingOf(discountCeilings, role);
    if (row.id === actor.userId) {
      throw new DomainError(403, 'APPROVAL_REFUSED', 'A discount above your limit needs another person to approve it');
    }
    const mayBill = (await labPermissions(db, actor.organizationId))[role].includes('create_bills');
    if (!mayBill || approverCeiling < effectivePercent) {
      throw new DomainError(
        403,
        'APPROVAL_REFUSED',
        `${row.email} may approve discounts up to ${approverCeiling}%; this bill needs ${effectivePercent}%`,
      );
    }
    return { ...base, approved_by: row.id, approved_by_email: row.email };
  } finally {
    ticket.release();
  }
}
