import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { CollectionLocation } from '../../shared/schemas/samples.js';
import {
  findLocationRow,
  insertLocationRow,
  lastLocationPosition,
  locationNamed,
  locationRows,
  updateLocationRow,
} from './repository.js';

type Row = { id: number; name: string; kind: string; position: number; is_active: number };
const toLocation = (r: Row): CollectionLocation => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  position: r.position,
  is_active: r.is_active === 1,
});

export async function listLocations(
  db: Db,
  organizationId: number,
  includeInactive = false,
): Promise<CollectionLocation[]> {
  return (await locationRows(db, organizationId, includeInactive)).map(toLocation);
}

export async function createLocation(
  db: Db,
  actor: Actor,
  input: { name: string; kind: string; is_active: boolean },
): Promise<CollectionLocation> {
  return db.transaction().execute(async (trx) => {
    const dup = await locationNamed(trx, actor.organizationId, input.name);
    if (dup) throw new ConflictError(`A location named ${input.name} already exists`, 'NAME_TAKEN');
    const max = await lastLocationPosition(trx, actor.organizationId);
    const now = nowIso();
    const row = await insertLocationRow(trx, {
      organization_id: actor.organizationId,
      name: input.name,
      kind: input.kind,
      position: Number(max?.p ?? -1) + 1,
      is_active: input.is_active ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, { action: 'create', entity: 'collection_location', entityId: row.id, newValues: row });
    return toLocation(row);
  });
}

export async function updateLocation(
  db: Db,
  actor: Actor,
  id: number,
  input: { name?: string | undefined; kind?: string | undefined; is_active?: boolean | undefined },
): Promise<CollectionLocation> {
  return db.transaction().execute(async (trx) => {
    const before = await findLocationRow(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Location', id);
    if (input.name && input.name.toLowerCase() !== before.name.toLowerCase()) {
      const dup = await locationNamed(trx, actor.organizationId, input.name);
      if (dup) throw new ConflictError(`A location named ${input.name} already exists`, 'NAME_TAKEN');
    }
    const after = await updateLocationRow(trx, id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.kind !== undefined && { kind: input.kind }),
      ...(input.is_active !== undefined && { is_active: input.is_active ? 1 : 0 }),
      updated_at: nowIso(),
    });
    const { oldValues, newValues } = diff(before, after);
    delete oldValues.updated_at;
    delete newValues.updated_at;
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'collection_location',
      entityId: id,
      oldValues,
      newValues,
    });
    return toLocation(after);
  });
}
