import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { QcMaterialsTable, QcRunsTable } from './tables.js';
import type { QcMaterialListQuery } from '../../shared/schemas/qc.js';
import { labRows } from '../db/joins.js';
import { labTable, labUpdate, labDelete } from '../db/lab-tables.js';

export type QcMaterialRow = Selectable<QcMaterialsTable>;
export type QcRunRow = Selectable<QcRunsTable>;

/** A material with its test and run tallies, as the list and detail read it. */
export interface QcMaterialListRow extends QcMaterialRow {
  test_name: string;
  test_code: string;
  run_count: number;
  passed_count: number;
  last_run_id: number | null;
}

export interface QcRunListRow extends QcRunRow {
  performer_first_name: string | null;
  performer_last_name: string | null;
}

export function findMaterial(db: Db, organizationId: number, id: number): Promise<QcMaterialRow | undefined> {
  return labRows(db, 'qc_materials', organizationId).where('id', '=', id).executeTakeFirst();
}

/**
 * Materials with their test, run count, passed count and latest run id. `today` (the lab's
 * YYYY-MM-DD) decides which are expired: a material is usable through its expiry date.
 */
export async function selectMaterials(
  db: Db,
  organizationId: number,
  q: QcMaterialListQuery & { id?: number },
  today: string,
): Promise<QcMaterialListRow[]> {
  let query = db
    .selectFrom('qc_materials as m')
    .innerJoin('tests as t', 't.id', 'm.test_id')
    .selectAll('m')
    .select((eb) => [
      't.name as test_name',
      't.code as test_code',
      eb
        .selectFrom('qc_runs as c')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('c.material_id', '=', 'm.id')
        .as('run_count'),
      eb
        .selectFrom('qc_runs as c')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('c.material_id', '=', 'm.id')
        .where('c.status', '=', 'passed')
        .as('passed_count'),
      eb
        .selectFrom('qc_runs as l')
        .select('l.id')
        .whereRef('l.material_id', '=', 'm.id')
        .orderBy('l.performed_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(1)
        .as('last_run_id'),
    ])
    .where('m.organization_id', '=', organizationId);

  if (q.id !== undefined) query = query.where('m.id', '=', q.id);
  if (q.test_id !== undefined) query = query.where('m.test_id', '=', q.test_id);
  if (q.status === 'inactive') query = query.where('m.is_active', '=', 0);
  if (q.status === 'active') query = query.where('m.is_active', '=', 1).where('m.expiry_date', '>=', today);
  if (q.status === 'expired') query = query.where('m.is_active', '=', 1).where('m.expiry_date', '<', today);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(m.name)`, 'like', s),
        eb(sql`lower(m.control_id)`, 'like', s),
        eb(sql`lower(m.lot_number)`, 'like', s),
        eb(sql`lower(coalesce(m.level, ''))`, 'like', s),
        eb(sql`lower(t.name)`, 'like', s),
        eb(sql`lower(t.code)`, 'like', s),
      ]),
    );
  }
  if (q.last_status) {
    const wanted = q.last_status;
    query = query.where((eb) => {
      const latest = eb
        .selectFrom('qc_runs as l')
        .select('l.status')
        .whereRef('l.material_id', '=', 'm.id')
        .orderBy('l.performed_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(1);
      return wanted === 'none' ? eb(latest, 'is', null) : eb(latest, '=', wanted);
    });
  }

  const rows = await query.orderBy('t.name').orderBy('m.control_id').execute();
  return rows.map((r) => ({
    ...r,
    run_count: Number(r.run_count ?? 0),
    passed_count: Number(r.passed_count ?? 0),
    last_run_id: r.last_run_id ?? null,
  }));
}

function runsWithPerformer(db: Db, organizationId: number) {
  return db
    .selectFrom('qc_runs as r')
    .leftJoin('users as u', 'u.id', 'r.performed_by')
    .selectAll('r')
    .select(['u.first_name as performer_first_name', 'u.last_name as performer_last_name'])
    .where('r.organization_id', '=', organizationId);
}

export async function selectRunsByIds(db: Db, organizationId: number, ids: number[]): Promise<QcRunListRow[]> {
  if (ids.length === 0) return [];
  return runsWithPerformer(db, organizationId).where('r.id', 'in', ids).execute();
}

/** Every run of a material, newest first (the order the Westgard rules read them in). */
export function selectRuns(db: Db, organizationId: number, materialId: number): Promise<QcRunListRow[]> {
  return runsWithPerformer(db, organizationId)
    .where('r.material_id', '=', materialId)
    .orderBy('r.performed_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();
}

/** The newest runs of a material, for judging the next one (10-x needs the nine before it). */
export function selectLatestRuns(
  db: Db,
  materialId: number,
  limit: number,
): Promise<Pick<QcRunRow, 'value' | 'performed_at'>[]> {
  return db
    .selectFrom('qc_runs')
    .select(['value', 'performed_at'])
    .where('material_id', '=', materialId)
    .orderBy('performed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countRuns(db: Db, materialId: number): Promise<number> {
  const row = await db
    .selectFrom('qc_runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('material_id', '=', materialId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Run tallies by status across the lab's materials. */
/** Runs by status: the levels measured together (one run_key) count as one run. */
export async function runTallies(db: Db, organizationId: number): Promise<Record<string, number>> {
  const rows = await labTable(db, 'qc_runs', organizationId)
    .select(['status', sql<number>`count(DISTINCT coalesce(run_key, 'r' || id))`.as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Another material of the same test, lot and level: the same vial set recorded twice. */
export function findSameLot(
  db: Db,
  organizationId: number,
  key: { test_id: number; lot_number: string; level: string | null },
  exceptId?: number,
): Promise<Pick<QcMaterialRow, 'id' | 'control_id'> | undefined> {
  let q = labTable(db, 'qc_materials', organizationId)
    .select(['id', 'control_id'])
    .where('test_id', '=', key.test_id)
    .where('lot_number', '=', key.lot_number)
    .where(sql<string>`coalesce(level, '')`, '=', key.level ?? '');
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

export function findLabTest(db: Db, organizationId: number, id: number) {
  return labTable(db, 'tests', organizationId)
    .select(['id', 'name', 'unit', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertMaterialRow(trx: Db, values: Insertable<QcMaterialsTable>): Promise<QcMaterialRow> {
  return trx.insertInto('qc_materials').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateMaterialRow(
  trx: Db,
  organizationId: number,
  id: number,
  patch: Updateable<QcMaterialsTable>,
): Promise<QcMaterialRow> {
  return labUpdate(trx, 'qc_materials', organizationId)
    .set(patch)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteMaterialRow(trx: Db, organizationId: number, id: number): Promise<void> {
  await labDelete(trx, 'qc_materials', organizationId).where('id', '=', id).execute();
}

export function insertRunRow(trx: Db, values: Insertable<QcRunsTable>): Promise<QcRunRow> {
  return trx.insertInto('qc_runs').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The latest QC runs of a test (all levels), newest first, for judging the next run across levels. */
export function selectLatestTestRuns(db: Db, testId: number, limit: number) {
  return db
    .selectFrom('qc_runs')
    .select(['run_key', 'material_id', 'value', 'performed_at', 'id'])
    .where('test_id', '=', testId)
    .orderBy('performed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function runsOfKey(db: Db, organizationId: number, runKey: string) {
  return labRows(db, 'qc_runs', organizationId).where('run_key', '=', runKey).execute();
}

export async function overrideRunRows(
  db: Db,
  organizationId: number,
  runKey: string,
  patch: { override_reason: string; overridden_by: number | null; overridden_at: string },
): Promise<void> {
  await labUpdate(db, 'qc_runs', organizationId).set(patch).where('run_key', '=', runKey).execute();
}

export function testQcRules(db: Db, organizationId: number, testId: number) {
  return labTable(db, 'tests', organizationId)
    .select(['id', 'name', 'code', 'qc_rules'])
    .where('id', '=', testId)
    .executeTakeFirst();
}

export async function setTestQcRules(db: Db, testId: number, rules: string | null): Promise<void> {
  await db.updateTable('tests').set({ qc_rules: rules }).where('id', '=', testId).execute();
}
