import type { Db } from '../db/connection.js';
import { labTable } from '../db/lab-tables.js';

/**
 * The queries of the QC gate: which control levels of a test hold its patient results, and the
 * latest run of each level at a moment. A material is one lot of one level.
 */

const RUN_COLUMNS = [
  'id',
  'run_key',
  'material_id',
  'status',
  'rules',
  'value',
  'z_score',
  'performed_at',
  'overridden_at',
  'equipment_id',
] as const;

/** The switched-on control materials of some tests: each is a level whose latest run can hold results. */
export function activeLevelsOfTests(db: Db, organizationId: number, testIds: number[]) {
  return labTable(db, 'qc_materials', organizationId)
    .select(['id', 'test_id', 'control_id', 'name', 'level', 'lot_number'])
    .where('test_id', 'in', testIds.length ? testIds : [0])
    .where('is_active', '=', 1)
    .orderBy('control_id')
    .execute();
}

export type QcLevelRow = Awaited<ReturnType<typeof activeLevelsOfTests>>[number];

/** The machines a level was run on at or before a moment, by id (runs that name no machine left out). */
export async function machinesOfLevel(
  db: Db,
  organizationId: number,
  materialId: number,
  atIso: string,
): Promise<number[]> {
  const rows = await labTable(db, 'qc_runs', organizationId)
    .select('equipment_id')
    .distinct()
    .where('material_id', '=', materialId)
    .where('performed_at', '<=', atIso)
    .where('equipment_id', 'is not', null)
    .orderBy('equipment_id')
    .execute();
  return rows.map((r) => r.equipment_id!);
}

/**
 * The latest run of a level at or before a moment. With a machine: among the runs on that machine
 * and those that name none (they may have been on it); without one: among all its runs.
 */
export function latestLevelRunAt(
  db: Db,
  organizationId: number,
  materialId: number,
  atIso: string,
  machine: number | null,
) {
  let q = labTable(db, 'qc_runs', organizationId)
    .select(RUN_COLUMNS)
    .where('material_id', '=', materialId)
    .where('performed_at', '<=', atIso);
  if (machine !== null) q = q.where((eb) => eb.or([eb('equipment_id', '=', machine), eb('equipment_id', 'is', null)]));
  return q.orderBy('performed_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export type LevelRun = NonNullable<Awaited<ReturnType<typeof latestLevelRunAt>>>;

/**
 * Every run a page of results can be judged by, in two queries whatever the page holds: the runs
 * of the levels between the earliest and the latest entry of the page, and before that, the latest
 * run of each level on each machine (and of those naming none). The latest run at any moment of
 * the page, on any machine, is among them (gate.ts, runHistory).
 */
export async function levelRunsAround(
  db: Db,
  organizationId: number,
  materialIds: number[],
  fromIso: string,
  toIso: string,
): Promise<LevelRun[]> {
  if (!materialIds.length) return [];
  const within = await labTable(db, 'qc_runs', organizationId)
    .select(RUN_COLUMNS)
    .where('material_id', 'in', materialIds)
    .where('performed_at', '>=', fromIso)
    .where('performed_at', '<=', toIso)
    .execute();
  const ranked = labTable(db, 'qc_runs', organizationId)
    .select(RUN_COLUMNS)
    .select((eb) =>
      eb.fn
        .agg<number>('row_number')
        .over((ob) =>
          ob.partitionBy(['material_id', 'equipment_id']).orderBy('performed_at', 'desc').orderBy('id', 'desc'),
        )
        .as('place'),
    )
    .where('material_id', 'in', materialIds)
    .where('performed_at', '<', fromIso);
  const before = await db.selectFrom(ranked.as('r')).select(RUN_COLUMNS).where('place', '=', 1).execute();
  return [...before, ...within];
}
