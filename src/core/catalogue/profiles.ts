import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import type {
  CatalogueListQuery,
  CatalogueProfile,
  ProfileCreate,
  ProfileUpdate,
} from '../../shared/schemas/catalogue.js';
import { toProfile, type ProfileRow } from './mappers.js';
import { assertOwned, profileTests } from './links.js';
import { recordPriceChange } from './pricing.js';
import { describeUsage } from './usage.js';
import { assertCodeFree } from './links.js';

export function findProfile(db: Db, organizationId: number, id: number): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('test_profiles')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

async function withTests(db: Db, rows: ProfileRow[]): Promise<CatalogueProfile[]> {
  const links = await profileTests(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toProfile(r, links.get(r.id) ?? []));
}

export async function listProfiles(db: Db, organizationId: number, q: CatalogueListQuery): Promise<CatalogueProfile[]> {
  let query = db.selectFrom('test_profiles').selectAll().where('organization_id', '=', organizationId);
  if (q.category) query = query.where('category', '=', q.category);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', s),
        eb(sql`lower(code)`, 'like', s),
        eb(sql`lower(coalesce(description, ''))`, 'like', s),
        eb(sql`lower(coalesce(category, ''))`, 'like', s),
      ]),
    );
  }
  return withTests(db, await query.orderBy('name').execute());
}

export async function getProfile(db: Db, organizationId: number, id: number): Promise<CatalogueProfile> {
  const row = await findProfile(db, organizationId, id);
  if (!row) throw new NotFoundError('Test profile', id);
  return (await withTests(db, [row]))[0]!;
}

async function setTests(trx: Db, profileId: number, testIds: number[]) {
  await trx.deleteFrom('profile_tests').where('profile_id', '=', profileId).execute();
  if (testIds.length) {
    await trx
      .insertInto('profile_tests')
      .values(testIds.map((test_id, position) => ({ profile_id: profileId, test_id, position })))
      .execute();
  }
}

/** Inside an open transaction: stores a profile and its tests, with price-history and audit rows. */
export async function insertProfile(trx: Db, actor: Actor, input: ProfileCreate): Promise<ProfileRow> {
  await assertCodeFree(trx, 'test_profiles', actor.organizationId, input.code);
  await assertOwned(trx, 'tests', actor.organizationId, input.test_ids, 'test_ids');
  const now = nowIso();
  const price_paise = rupeesToPaise(input.price);
  const row = await trx
    .insertInto('test_profiles')
    .values({
      organization_id: actor.organizationId,
      name: input.name,
      code: input.code,
      description: input.description ?? null,
      category: input.category ?? null,
      price_paise,
      base_price_paise: input.base_price === undefined ? price_paise : rupeesToPaise(input.base_price),
      status: input.status,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await setTests(trx, row.id, input.test_ids);
  await recordPriceChange(trx, actor, 'profile', row.id, null, row);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'test_profile',
    entityId: row.id,
    newValues: { ...row, test_ids: input.test_ids },
  });
  return row;
}

export async function createProfile(db: Db, actor: Actor, input: ProfileCreate): Promise<CatalogueProfile> {
  return db.transaction().execute(async (trx) => (await withTests(trx, [await insertProfile(trx, actor, input)]))[0]!);
}

export async function updateProfile(db: Db, actor: Actor, id: number, input: ProfileUpdate): Promise<CatalogueProfile> {
  return db.transaction().execute(async (trx) => {
    const before = await findProfile(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Test profile', id);
    if (input.code && input.code !== before.code)
      await assertCodeFree(trx, 'test_profiles', actor.organizationId, input.code, id);
    const beforeTests = (await profileTests(trx, [id])).get(id)?.map((t) => t.id) ?? [];
    const { price, base_price, test_ids, ...rest } = input;
    const patch: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) patch[k] = v ?? null;
    if (price !== undefined) patch.price_paise = rupeesToPaise(price);
    if (base_price !== undefined) patch.base_price_paise = rupeesToPaise(base_price);
    const after = await trx
      .updateTable('test_profiles')
      .set({ ...patch, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (test_ids !== undefined) {
      await assertOwned(trx, 'tests', actor.organizationId, test_ids, 'test_ids');
      await setTests(trx, id, test_ids);
    }
    await recordPriceChange(trx, actor, 'profile', id, before, after);
    const { oldValues, newValues } = diff(
      { ...before, test_ids: beforeTests },
      { ...after, test_ids: test_ids ?? beforeTests },
    );
    delete oldValues.updated_at;
    delete newValues.updated_at;
    if (Object.keys(newValues).length)
      await writeAudit(trx, actor, { action: 'update', entity: 'test_profile', entityId: id, oldValues, newValues });
    return (await withTests(trx, [after]))[0]!;
  });
}

export async function deleteProfile(db: Db, actor: Actor, id: number): Promise<CatalogueProfile> {
  return db.transaction().execute(async (trx) => {
    const before = await findProfile(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Test profile', id);
    const packages = await trx
      .selectFrom('package_profiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('profile_id', '=', id)
      .executeTakeFirstOrThrow();
    const bills = await trx
      .selectFrom('bill_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('profile_id', '=', id)
      .executeTakeFirstOrThrow();
    const usage = describeUsage({ package: Number(packages.n), bill: Number(bills.n) });
    if (usage)
      throw new ConflictError(`${before.name} is used by ${usage}; deactivate it instead of deleting it`, 'IN_USE');
    const profile = (await withTests(trx, [before]))[0]!;
    await trx.deleteFrom('test_profiles').where('id', '=', id).execute();
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'test_profile',
      entityId: id,
      oldValues: { ...before, test_ids: profile.test_ids },
    });
    return profile;
  });
}
