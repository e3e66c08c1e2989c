import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db } from '../db/connection.js';
import { insertRows } from '../db/bulk.js';
import { resultsWithPatient, samplesWithPatient } from '../db/joins.js';
import { billsWithPatient } from '../db/bill-joins.js';
import type { AuditLogTable, DB } from '../db/schema.js';
import { onPage } from '../db/paging.js';

/**
 * SQL of the audit trail: the chained rows (append, walk, page) and the names of what rows are about.
 */

type Executor = Db | Transaction<DB>;

export async function lastAuditHash(trx: Executor): Promise<string | null> {
  const last = await trx.selectFrom('audit_log').select('hash').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return last?.hash ?? null;
}

export async function insertAuditRow(trx: Executor, values: Insertable<AuditLogTable>): Promise<void> {
  await trx.insertInto('audit_log').values(values).execute();
}

/** Many chained rows at once (writeAuditBatch), each an array of values in `columns` order. */
export async function insertAuditRows(
  trx: Db,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  await insertRows(trx, 'audit_log', columns, rows);
}

/** The next batch of the trail after a row, in order (the chain check). */
export function auditRowsAfter(db: Db, lastId: number, batch: number) {
  return db.selectFrom('audit_log').selectAll().where('id', '>', lastId).orderBy('id').limit(batch).execute();
}

export interface AuditFilter {
  user_id?: number;
  action?: string;
  entity?: string;
  /** success or failed (the Activity Monitor's sign-ins). */
  status?: string;
  search?: string;
  fromIso?: string;
  toIso?: string;
}

/** One page of a lab's trail, newest first, with the user's name, and the total. */
export async function pageAuditRows(db: Db, organizationId: number, f: AuditFilter, page: number, limit: number) {
  let base = db.selectFrom('audit_log as a').where('a.organization_id', '=', organizationId);
  if (f.user_id) base = base.where('a.user_id', '=', f.user_id);
  if (f.action) base = base.where('a.action', '=', f.action);
  if (f.entity) base = base.where('a.entity', '=', f.entity);
  if (f.status) base = base.where('a.status', '=', f.status);
  if (f.fromIso) base = base.where('a.created_at', '>=', f.fromIso);
  if (f.toIso) base = base.where('a.created_at', '<', f.toIso);
  if (f.search) {
    const s = `%${f.search.toLowerCase()}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql`lower(a.user_email)`, 'like', s),
        eb('a.entity_id', 'like', s),
        eb(sql`lower(a.new_values)`, 'like', s),
      ]),
    );
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.created_at',
      'a.user_id',
      'a.user_email',
      'a.action',
      'a.entity',
      'a.entity_id',
      'a.old_values',
      'a.new_values',
      'a.ip_address',
      'a.user_agent',
      'a.status',
      'u.first_name',
      'u.last_name',
    ])
    .orderBy('a.id', 'desc')
    .$call(onPage({ page, limit }))
    .execute();
  return { rows, total: Number(total) };
}

/**
 * What an audit row is about, in words staff recognise: "FBS · Ramesh Kumar (PAT-…)" rather than
 * "Test result #12". Worked out when the list is read (one query per kind of entity on the page), so
 * the audit rows themselves, and the server log, keep holding ids, not names.
 */
type Lookup = (db: Db, organizationId: number, ids: number[]) => Promise<Map<number, string>>;

const person = (first: string | null, last: string | null, code: string | null) =>
  `${[first, last].filter(Boolean).join(' ')}${code ? ` (${code})` : ''}`;

const LOOKUPS: Record<string, Lookup> = {
  test_result: async (db, org, ids) => {
    const rows = await resultsWithPatient(db, org)
      .select(['r.id', 't.code', 't.name', 'p.first_name', 'p.last_name', 'p.patient_code', 's.sample_code'])
      .where('r.id', 'in', ids)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        `${r.code} ${r.name} · ${person(r.first_name, r.last_name, r.patient_code)} · ${r.sample_code}`,
      ]),
    );
  },
  sample: async (db, org, ids) => {
    const rows = await samplesWithPatient(db, org)
      .select(['s.id', 's.sample_code', 'p.first_name', 'p.last_name', 'p.patient_code'])
      .where('s.id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, `${r.sample_code} · ${person(r.first_name, r.last_name, r.patient_code)}`]));
  },
  patient: async (db, org, ids) => {
    const rows = await db
      .selectFrom('patients')
      .select(['id', 'first_name', 'last_name', 'patient_code'])
      .where('organization_id', '=', org)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, person(r.first_name, r.last_name, r.patient_code)]));
  },
  bill: async (db, org, ids) => {
    const rows = await billsWithPatient(db, org)
      .select(['b.id', 'b.bill_number', 'p.first_name', 'p.last_name', 'p.patient_code'])
      .where('b.id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, `${r.bill_number} · ${person(r.first_name, r.last_name, r.patient_code)}`]));
  },
  test: async (db, org, ids) => codeAndName(db, 'tests', org, ids),
  test_profile: async (db, org, ids) => codeAndName(db, 'test_profiles', org, ids),
  test_package: async (db, org, ids) => codeAndName(db, 'test_packages', org, ids),
  user: async (db, org, ids) => {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'email'])
      .where('organization_id', '=', org)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name} (${r.email})`]));
  },
};

async function codeAndName(db: Db, table: 'tests' | 'test_profiles' | 'test_packages', org: number, ids: number[]) {
  // The three catalogue tables share these columns.
  const rows = await db
    .selectFrom(table as 'tests')
    .select(['id', 'code', 'name'])
    .where('organization_id', '=', org)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.code} ${r.name}`]));
}

/** The subject of each row (by audit row id), for the rows whose entity still exists. */
export async function auditSubjects(
  db: Db,
  organizationId: number,
  rows: readonly { id: number; entity: string; entity_id: string | null }[],
): Promise<Map<number, string>> {
  const byEntity = new Map<string, number[]>();
  for (const r of rows) {
    const n = Number(r.entity_id);
    if (!LOOKUPS[r.entity] || !Number.isInteger(n) || n <= 0) continue;
    byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), n]);
  }
  const names = new Map<string, Map<number, string>>();
  for (const [entity, ids] of byEntity)
    names.set(entity, await LOOKUPS[entity]!(db, organizationId, [...new Set(ids)]));
  const out = new Map<number, string>();
  for (const r of rows) {
    const name = names.get(r.entity)?.get(Number(r.entity_id));
    if (name) out.set(r.id, name);
  }
  return out;
}
