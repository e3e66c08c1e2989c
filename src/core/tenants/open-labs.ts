import type { Db } from '../db/connection.js';
import { DomainError, ForbiddenError } from '../errors.js';
import { LAB_CLOSED_MESSAGES, type TenantStatus } from '../../shared/schemas/tenants.js';
import { primaryOrganizationId } from './repository.js';

/**
 * A suspended or inactive lab is closed as a whole: not only its staff's sign-in, but its patients'
 * portal, its analyzer lines and what it sends out. Everything that runs without a signed-in user
 * asks here (or joins openLabIds), so reactivating the lab brings it all back.
 */
export const CLOSED_LAB_STATUSES = Object.keys(LAB_CLOSED_MESSAGES) as TenantStatus[];

/** The ids of the labs that work now: a subquery for `organization_id in (...)`. */
export function openLabIds(db: Db) {
  return db
    .selectFrom('organizations')
    .select('organizations.id')
    .where('organizations.status', 'not in', CLOSED_LAB_STATUSES);
}

/**
 * The queues of what a lab sends out by itself, each with the status of a row that waits for its
 * next attempt (the report ledger says 'queued' because 'pending' is not a state it shows).
 */
const WAITING = { outbox: 'pending', interop_deliveries: 'pending', report_deliveries: 'queued' } as const;
type SendQueue = keyof typeof WAITING;

/**
 * The ids of a send queue's waiting rows whose next attempt is due at `nowIso`, oldest first. Only
 * open labs' rows: a suspended or inactive lab sends nothing; its messages wait, due, until it is
 * reactivated.
 */
export async function dueIdsOfOpenLabs(db: Db, queue: SendQueue, nowIso: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom(queue)
    .select('id')
    .where('status', '=', WAITING[queue])
    .where('next_attempt_at', '<=', nowIso)
    .where('organization_id', 'in', openLabIds(db))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function labIsOpen(db: Db, organizationId: number): Promise<boolean> {
  const r = await db.selectFrom('organizations').select('status').where('id', '=', organizationId).executeTakeFirst();
  return r !== undefined && !CLOSED_LAB_STATUSES.includes(r.status as TenantStatus);
}

/** Work refused because its lab is suspended or inactive (nothing of it is stored or sent). */
export class LabClosedError extends DomainError {
  constructor(message = "This lab's account is suspended or inactive") {
    super(403, 'LAB_CLOSED', message);
  }
}

/**
 * The server's operator: the superadmin of the server's first lab (the one who manages the labs).
 * What concerns the whole server (every lab's backups, the database file, the audit chain that
 * links every lab's rows) is theirs; a lab's own admin is refused with 403.
 */
export async function assertServerOperator(
  db: Db,
  actor: { role: string; organizationId: number },
  what = 'This',
): Promise<number> {
  const primary = await primaryOrganizationId(db);
  if (primary === null) throw new ForbiddenError('No lab is set up on this server');
  if (actor.role !== 'system' && (actor.role !== 'superadmin' || actor.organizationId !== primary)) {
    throw new ForbiddenError(
      `${what} concerns the whole server: only the superadmin of the server's first lab may use it`,
    );
  }
  return primary;
}
