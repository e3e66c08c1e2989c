import type { Db } from '../db/connection.js';
import { labTable } from '../db/lab-tables.js';

/** Every query of the print snapshots (migration 41). */

export type SnapshotKind = 'report' | 'bill';

export async function latestSnapshotRow(db: Db, organizationId: number, kind: SnapshotKind, entityId: number) {
  return labTable(db, 'print_snapshots', organizationId)
    .select(['version', 'taken_at', 'content'])
    .where('kind', '=', kind)
    .where('entity_id', '=', entityId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function latestSnapshotRows(db: Db, organizationId: number, kind: SnapshotKind, entityIds: number[]) {
  if (!entityIds.length) return [];
  return labTable(db, 'print_snapshots', organizationId)
    .select(['entity_id', 'version', 'taken_at', 'content'])
    .where('kind', '=', kind)
    .where('entity_id', 'in', entityIds)
    .orderBy('entity_id')
    .orderBy('version', 'desc')
    .execute();
}

export async function insertSnapshotRow(
  db: Db,
  row: { organization_id: number; kind: SnapshotKind; entity_id: number; taken_at: string; content: string },
): Promise<number> {
  const before = await latestSnapshotRow(db, row.organization_id, row.kind, row.entity_id);
  const version = (before ? Number(before.version) : 0) + 1;
  await db
    .insertInto('print_snapshots')
    .values({ ...row, version })
    .execute();
  return version;
}

export async function insertImageRow(
  db: Db,
  row: { organization_id: number; digest: string; mime: string; data_base64: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('print_images')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'digest']).doNothing())
    .execute();
}

export async function imageRows(db: Db, organizationId: number, digests: string[]) {
  if (!digests.length) return [];
  return labTable(db, 'print_images', organizationId)
    .select(['digest', 'data_base64'])
    .where('digest', 'in', digests)
    .execute();
}
