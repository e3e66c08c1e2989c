import { nowIso } from '../context.js';
import type { Db } from '../db/connection.js';
import { writeAudit } from '../audit/audit.js';
import { NotFoundError } from '../errors.js';
import {
  deleteMapping,
  insertMapping,
  mappingByName,
  mappingRow,
  mappingRows,
  updateMapping,
  userNames,
  type DataMappingRow,
} from './repository.js';
import { type DataEntity, type DataMapping, type DataMappingInput } from '../../shared/schemas/data-jobs.js';
import { movableEntity, requireMove, visibleEntities, type Requester } from './access.js';
import { checkMapping } from './upload-checks.js';

/** Saved column mappings of the data screens: a lab names the mapping of another system's file. */

// ---------------------------------------------------------------- saved mappings

async function mappingsToApi(db: Db, organizationId: number, rows: DataMappingRow[]): Promise<DataMapping[]> {
  const names = await userNames(db, organizationId, [
    ...new Set(rows.map((m) => m.created_by).filter((x): x is number => x !== null)),
  ]);
  return rows.map((m) => ({
    id: m.id,
    entity: m.entity as DataEntity,
    name: m.name,
    mapping: JSON.parse(m.mapping) as Record<string, string | null>,
    created_by: m.created_by === null ? null : (names.get(m.created_by) ?? null),
    updated_at: m.updated_at,
  }));
}

export async function listMappings(db: Db, r: Requester, entity?: string): Promise<DataMapping[]> {
  const rows = await mappingRows(db, r.actor.organizationId, entity);
  const seen = visibleEntities(r);
  return mappingsToApi(
    db,
    r.actor.organizationId,
    rows.filter((m) => seen.includes(m.entity)),
  );
}

export async function saveMapping(db: Db, r: Requester, input: DataMappingInput): Promise<DataMapping> {
  const entity = movableEntity(r, input.entity, 'import');
  const mapping = checkMapping(entity, input.mapping) ?? {};
  const text = JSON.stringify(mapping);
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const before = await mappingByName(trx, r.actor.organizationId, entity.name, input.name);
    let mid: number;
    if (before) {
      await updateMapping(trx, before.id, text, now);
      mid = before.id;
    } else {
      mid = await insertMapping(trx, {
        organization_id: r.actor.organizationId,
        entity: entity.name,
        name: input.name,
        mapping: text,
        created_by: r.actor.userId,
        created_at: now,
        updated_at: now,
      });
    }
    await writeAudit(trx, r.actor, {
      action: before ? 'update' : 'create',
      entity: 'data_mapping',
      entityId: mid,
      oldValues: before ? { name: before.name, entity: before.entity, mapping: JSON.parse(before.mapping) } : undefined,
      newValues: { name: input.name, entity: entity.name, mapping },
    });
    return mid;
  });
  const row = await mappingRow(db, r.actor.organizationId, id);
  return (await mappingsToApi(db, r.actor.organizationId, [row!]))[0]!;
}

export async function removeMapping(db: Db, r: Requester, id: number): Promise<DataMapping> {
  const row = await mappingRow(db, r.actor.organizationId, id);
  if (!row || !visibleEntities(r).includes(row.entity)) throw new NotFoundError('Mapping', id);
  requireMove(r, row.entity, 'import');
  const [api] = await mappingsToApi(db, r.actor.organizationId, [row]);
  await db.transaction().execute(async (trx) => {
    await deleteMapping(trx, id);
    await writeAudit(trx, r.actor, {
      action: 'delete',
      entity: 'data_mapping',
      entityId: id,
      oldValues: { name: row.name, entity: row.entity, mapping: JSON.parse(row.mapping) },
    });
  });
  return api!;
}
