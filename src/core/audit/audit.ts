import {
  auditRowsAfter,
  auditSubjects,
  insertAuditRow,
  insertAuditRows,
  lastAuditHash,
  pageAuditRows,
  type AuditFilter,
} from './repository.js';
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { AuditLogTable, DB } from '../db/schema.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import type { AuditAction } from '../../shared/constants.js';
import type { AuditListQuery, AuditLog } from '../../shared/schemas/audit.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type { ChainReport } from '../../shared/schemas/system.js';

export type { ChainReport };
import { organizationTimezone } from '../settings/service.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';

type Executor = Db | Transaction<DB>;

/** Fields that never go into the audit trail. */
const SECRET_FIELDS = new Set(['password', 'password_hash', 'portal_pin_hash', 'token']);

function clean(values: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!values) return null;
  // Most entries hold no secret field: kept as they are, without a copy (an import writes a million).
  let secret = false;
  for (const k of SECRET_FIELDS) if (Object.hasOwn(values, k)) secret = true;
  if (!secret) return values;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (!SECRET_FIELDS.has(k)) out[k] = v;
  return out;
}

export interface AuditEntry {
  action: AuditAction;
  entity: string;
  entityId?: string | number | null;
  oldValues?: Record<string, unknown> | null;
  newValues?: Record<string, unknown> | null;
  status?: 'success' | 'failed';
}

export const GENESIS_HASH = '0'.repeat(64);

/** A stored audit row but for its id and the two hashes that chain it. */
export type HashedFields = Omit<AuditLogTable, 'id' | 'prev_hash' | 'hash'>;

/** The stored fields of a row that its hash covers, in the order they are hashed. */
export const HASHED_COLUMNS = [
  'organization_id',
  'user_id',
  'user_email',
  'action',
  'entity',
  'entity_id',
  'old_values',
  'new_values',
  'ip_address',
  'user_agent',
  'status',
  'created_at',
] as const satisfies readonly (keyof HashedFields)[];

/**
 * What the hash covers after the previous row's hash: the row's fields as the rest of a JSON
 * array, so that the hashed text is `["<previous hash>",` and this (a hex hash needs no escaping).
 * Staged writes keep it and chain the rows in the database (staged.ts).
 */
export function hashTail(r: HashedFields): string {
  return JSON.stringify(HASHED_COLUMNS.map((c) => r[c])).slice(1);
}

/** The hash covers every stored field of the row plus the previous row's hash. */
export function rowHash(prevHash: string, r: HashedFields): string {
  return createHash('sha256')
    .update(`["${prevHash}",${hashTail(r)}`)
    .digest('hex');
}

/** The fields of an actor's entry as stored. */
export function hashedFields(actor: Actor, entry: AuditEntry, createdAt: string): HashedFields {
  return {
    organization_id: actor.organizationId,
    user_id: actor.userId,
    user_email: actor.email,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId == null ? null : String(entry.entityId),
    old_values: entry.oldValues ? JSON.stringify(clean(entry.oldValues)) : null,
    new_values: entry.newValues ? JSON.stringify(clean(entry.newValues)) : null,
    ip_address: actor.ip ?? null,
    user_agent: actor.userAgent ?? null,
    status: entry.status ?? 'success',
    created_at: createdAt,
  };
}

/**
 * Audits a change to one of the lab's own settings, the lab being the entity's id. `oldValues`
 * null: the first save, which created them.
 */
export function auditLabSettings(
  trx: Executor,
  actor: Actor,
  entity: string,
  oldValues: Record<string, unknown> | null,
  newValues: Record<string, unknown>,
): Promise<void> {
  return writeAudit(trx, actor, {
    action: oldValues ? 'update' : 'create',
    entity,
    entityId: actor.organizationId,
    oldValues,
    newValues,
  });
}

/**
 * Appends one audit row. Call it inside the transaction that makes the change, so the change and
 * its audit row are stored together or not at all. Write transactions are serialised (BEGIN
 * IMMEDIATE), so reading the last hash here is race-free.
 */
export async function writeAudit(trx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  // Outside a transaction (a sign-in, an export), the read of the last hash and the append still
  // go together in one: on PostgreSQL another server may be appending at the same moment.
  if (!trx.isTransaction) return (trx as Db).transaction().execute((t) => appendAudit(t, actor, entry));
  return appendAudit(trx, actor, entry);
}

async function appendAudit(trx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  const prev = (await lastAuditHash(trx)) ?? GENESIS_HASH;
  const row = hashedFields(actor, entry, nowIso());
  await insertAuditRow(trx, { ...row, prev_hash: prev, hash: rowHash(prev, row) });
}

/** The stored columns of an audit row, in insert order (writeAuditBatch). */
const BATCH_COLUMNS = [...HASHED_COLUMNS, 'prev_hash', 'hash'] as const;

/**
 * Appends many audit rows at once, in order, inside the caller's open transaction (an import's
 * rows): the last hash is read once, the chain is extended in memory and the rows go in a few
 * multi-row INSERTs. The chain is the same as writing them one by one with writeAudit.
 */
export async function writeAuditBatch(trx: Executor, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  if (!trx.isTransaction) throw new Error('writeAuditBatch runs inside the write transaction of its changes');
  let prev = (await lastAuditHash(trx)) ?? GENESIS_HASH;
  const createdAt = nowIso();
  const rows: unknown[][] = new Array<unknown[]>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const row = hashedFields(actor, entries[i]!, createdAt);
    const hash = rowHash(prev, row);
    rows[i] = [...HASHED_COLUMNS.map((c) => row[c]), prev, hash];
    prev = hash;
  }
  await insertAuditRows(trx as Db, BATCH_COLUMNS, rows);
}

/** Only the fields that changed, old and new, so the trail reads as "what changed". */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { oldValues: Record<string, unknown>; newValues: Record<string, unknown> } {
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      oldValues[k] = before[k] ?? null;
      newValues[k] = after[k] ?? null;
    }
  }
  return { oldValues, newValues };
}

/** Walks the whole trail in order and reports the first row whose hash or link does not hold. */
export async function verifyChain(db: Db): Promise<ChainReport> {
  let prev = GENESIS_HASH;
  let checked = 0;
  let lastId = 0;
  const batch = 5000;
  for (;;) {
    const rows = await auditRowsAfter(db, lastId, batch);
    for (const r of rows) {
      if (r.prev_hash !== prev) {
        return {
          ok: false,
          checked,
          firstBrokenId: r.id,
          reason: 'its link to the previous row is broken (a row was removed or inserted)',
        };
      }
      if (rowHash(prev, r) !== r.hash) {
        return {
          ok: false,
          checked,
          firstBrokenId: r.id,
          reason: 'its contents do not match its hash (the row was altered)',
        };
      }
      prev = r.hash;
      checked += 1;
      lastId = r.id;
    }
    if (rows.length < batch) break;
  }
  return { ok: true, checked, firstBrokenId: null, reason: null };
}

function toLog(r: Record<string, unknown>): AuditLog {
  const parse = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : null);
  return {
    id: r.id as number,
    created_at: r.created_at as string,
    user_id: (r.user_id as number | null) ?? null,
    user_email: (r.user_email as string | null) ?? null,
    user_name: r.first_name ? `${String(r.first_name)} ${String(r.last_name)}` : null,
    action: r.action as string,
    entity: r.entity as string,
    entity_id: (r.entity_id as string | null) ?? null,
    old_values: parse(r.old_values),
    new_values: parse(r.new_values),
    ip_address: (r.ip_address as string | null) ?? null,
    user_agent: (r.user_agent as string | null) ?? null,
    status: r.status as 'success' | 'failed',
  };
}

export async function listAudit(db: Db, organizationId: number, q: AuditListQuery) {
  const filter: AuditFilter = { user_id: q.user_id, action: q.action, entity: q.entity, search: q.search };
  if (q.from || q.to) {
    // From/To are the lab's calendar days (its time zone), not UTC days: 01:00 IST on the 5th is the 5th.
    const timeZone = await organizationTimezone(db, organizationId);
    if (q.from) filter.fromIso = startOfLocalDayUtc(timeZone, q.from).toISOString();
    if (q.to) filter.toIso = startOfLocalDayUtc(timeZone, addDays(q.to, 1)).toISOString();
  }
  const { rows, total } = await pageAuditRows(db, organizationId, filter, q.page, q.limit);
  const subjects = await auditSubjects(db, organizationId, rows);
  return {
    logs: rows.map((r) => ({ ...toLog(r as Record<string, unknown>), subject: subjects.get(r.id) ?? null })),
    ...pageEnvelope(Number(total), q.page, q.limit),
  };
}
