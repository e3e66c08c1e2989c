import type { Db } from '../db/connection.js';
import { ConflictError } from '../errors.js';
import { getOrganization, primaryOrganization } from '../settings/organization.js';
import { NO_PASSWORD, verifyPassword } from '../auth/password.js';
import { findUsersByEmail, type UserRow } from '../users/repository.js';
import { findTenantRow, primaryOrganizationId, tenantIdByDomain } from './repository.js';
import { LAB_CLOSED_MESSAGES, type TenantStatus } from '../../shared/schemas/tenants.js';

export const AMBIGUOUS_LAB =
  "This email has accounts in more than one lab on this server. Sign in at your lab's own address (the domain your administrator gave you).";

/**
 * The account an email signs in to when one email may have accounts in several labs:
 * - a request whose host name is a lab's domain signs in to that lab only (an email without an
 *   account there is unknown);
 * - otherwise the email's only account, or its account in the server's first lab;
 * - otherwise (accounts in two other labs, and a host that names neither) it refuses rather than
 *   guess, with 409 AMBIGUOUS_LAB; and only to someone whose password fits one of the accounts, so
 *   a stranger learns no more than from any wrong password.
 * Undefined: no such account (the caller answers as for a wrong password).
 */
export async function signInAccount(
  db: Db,
  email: string,
  host: string | null,
  password: string,
): Promise<UserRow | undefined> {
  const rows = await findUsersByEmail(db, email);
  if (rows.length === 0) return undefined;
  const lab = host ? await tenantIdByDomain(db, host) : undefined;
  if (lab) return rows.find((r) => r.organization_id === lab.id);
  if (rows.length === 1) return rows[0];
  const primary = await primaryOrganizationId(db);
  const inPrimary = rows.find((r) => r.organization_id === primary);
  if (inPrimary) return inPrimary;
  for (const r of rows) {
    if (r.password_hash !== NO_PASSWORD && (await verifyPassword(password, r.password_hash))) {
      throw new ConflictError(AMBIGUOUS_LAB, 'AMBIGUOUS_LAB');
    }
  }
  return undefined;
}

/** The sign-in refusal for a lab that is suspended or inactive, or null when its staff may sign in. */
export async function labClosedMessage(db: Db, organizationId: number): Promise<string | null> {
  const lab = await findTenantRow(db, organizationId);
  return (lab && LAB_CLOSED_MESSAGES[lab.status as TenantStatus]) ?? null;
}

/**
 * The lab named on the sign-in page: the lab whose domain the request's host name is, else the
 * server's first lab (the one an email with accounts in several labs signs in to at any other
 * address). Only the name: the page says whose system this is and nothing about other labs.
 */
export async function signInLabName(db: Db, host: string | null): Promise<string | null> {
  const lab = host ? await tenantIdByDomain(db, host) : undefined;
  if (lab) return (await getOrganization(db, lab.id)).name;
  return (await primaryOrganization(db))?.name ?? null;
}
