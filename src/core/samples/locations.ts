import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { CollectionLocation } from '../../shared/schemas/samples.js';

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
  let q = db
    .selectFrom('collection_locations')
    .select(['id', 'name', 'kind', 'position', 'is_active'])
    .where('organization_id', '=', organizationId);
  if (!includeInactive) q = q.where('is_active', '=', 1);
  return (await q.orderBy('position').orderBy('name').execute()).map(toLocation);
}

export async function createLocation(
  db: Db,
  actor: Actor,
  input: { name: string; kind: string; is_active: boolean },
): Promise<CollectionLocation> {
  return db.transaction().execute(async (trx) => {
    const dup = await trx
      .selectFrom('collection_locations')
      .select('id')
      .where('organization_id', '=', actor.organizationId)
      .where('name', '=', input.name)
      .executeTakeFirst();
    if (dup) throw new ConflictError(`A location named ${input.name} already exists`, 'NAME_TAKEN');
    const max = await trx
      .selectFrom('collection_locations')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('organization_id', '=', actor.organizationId)
      .executeTakeFirst();
    const now = nowIso();
    const row = await trx
      .insertInto('collection_locations')
      .values({
        organization_id: actor.organizationId,
        name: input.name,
        kind: input.kind,
        position: Number(max?.p ?? -1) + 1,
        is_active: input.is_active ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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
    const before = await trx
      .selectFrom('collection_locations')
      .selectAll()
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) throw new NotFoundError('Location', id);
    if (input.name && input.name.toLowerCase() !== before.name.toLowerCase()) {
      const dup = await trx
        .selectFrom('collection_locations')
        .select('id')
        .where('organization_id', '=', actor.organizationId)
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (dup) throw new ConflictError(`A location named ${input.name} already exists`, 'NAME_TAKEN');
    }
    const after = await trx
      .updateTable('collection_locations')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.kind !== undefined && { kind: input.kind }),
        ...(input.is_active !== undefined && { is_active: input.is_active ? 1 : 0 }),
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
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
