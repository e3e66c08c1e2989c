import type { Db } from '../db/connection.js';
import { getOrganization, primaryOrganization } from '../settings/service.js';
import { findUserByEmail, type UserRow } from '../users/repository.js';
import { findTenantRow, organizationCount, primaryOrganizationId, tenantIdByDomain } from './repository.js';
import type { SignInLab } from '../../shared/schemas/auth.js';
import { LAB_CLOSED_MESSAGES, type TenantStatus } from '../../shared/schemas/tenants.js';

/**
 * The lab a staff sign-in is for, decided before any account is looked at, so that what happens
 * never depends on where else an email has an account:
 * - a request whose host name is a lab's domain is for that lab (a `lab` field naming another lab
 *   names none);
 * - otherwise the lab the `lab` field names by its domain (the sign-in page asks for it when the
 *   server holds more than one lab), and none when no lab has that domain;
 * - otherwise the server's first lab (on a one-lab server, the lab).
 * Null: no such lab (the caller answers as for a wrong password).
 */
export async function signInLabId(db: Db, host: string | null, lab: string | undefined): Promise<number | null> {
  const byHost = host ? await tenantIdByDomain(db, host) : undefined;
  if (byHost) return lab === undefined || lab === host!.toLowerCase() ? byHost.id : null;
  if (lab !== undefined) return (await tenantIdByDomain(db, lab))?.id ?? null;
  return primaryOrganizationId(db);
}

/** The account of this email in the lab of the sign-in (see signInLabId), if any. */
export async function signInAccount(
  db: Db,
  organizationId: number | null,
  email: string,
): Promise<UserRow | undefined> {
  return organizationId === null ? undefined : findUserByEmail(db, organizationId, email);
}

/** The sign-in refusal for a lab that is suspended or inactive, or null when its staff may sign in. */
export async function labClosedMessage(db: Db, organizationId: number): Promise<string | null> {
  const lab = await findTenantRow(db, organizationId);
  return (lab && LAB_CLOSED_MESSAGES[lab.status as TenantStatus]) ?? null;
}

/**
 * The lab named on the sign-in page: the lab whose domain the request's host name is, else the
 * server's first lab (the one a sign-in naming no lab is for); and whether the page must ask for the
 * lab (the host names none and the server holds several). Only the name and that flag: nothing
 * about other labs.
 */
export async function signInPageLab(db: Db, host: string | null): Promise<SignInLab> {
  const lab = host ? await tenantIdByDomain(db, host) : undefined;
  if (lab) return { name: (await getOrganization(db, lab.id)).name, ask_lab: false };
  return { name: (await primaryOrganization(db))?.name ?? null, ask_lab: (await organizationCount(db)) > 1 };
}
