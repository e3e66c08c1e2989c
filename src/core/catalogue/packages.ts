import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import type {
  CatalogueListQuery,
  CataloguePackage,
  PackageCreate,
  PackageUpdate,
} from '../../shared/schemas/catalogue.js';
import { toPackage, type PackageRow } from './mappers.js';
import { assertOwned, packageProfiles, packageTests } from './links.js';
import { recordPriceChange } from './pricing.js';
import { describeUsage } from './usage.js';
import { assertCodeFree } from './links.js';

export function findPackage(db: Db, organizationId: number, id: number): Promise<PackageRow | undefined> {
  return db
    .selectFrom('test_packages')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

async function withLinks(db: Db, rows: PackageRow[]): Promise<CataloguePackage[]> {
  const ids = rows.map((r) => r.id);
  const [tests, profiles] = [await packageTests(db, ids), await packageProfiles(db, ids)];
  return rows.map((r) => toPackage(r, tests.get(r.id) ?? [], profiles.get(r.id) ?? []));
}

export async function listPackages(db: Db, organizationId: number, q: CatalogueListQuery): Promise<CataloguePackage[]> {
  let query = db.selectFrom('test_packages').selectAll().where('organization_id', '=', organizationId);
  if (q.category) query = query.where('category', '=', q.category);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', s),
        eb(sql`lower(code)`, 'like', s),
        eb(sql`lower(coalesce(description, ''))`, 'like', s),
      ]),
    );
  }
  return withLinks(db, await query.orderBy('name').execute());
}

export async function getPackage(db: Db, organizationId: number, id: number): Promise<CataloguePackage> {
  const row = await findPackage(db, organizationId, id);
  if (!row) throw new NotFoundError('Test package', id);
  return (await withLinks(db, [row]))[0]!;
}

async function setLinks(trx: Db, packageId: number, testIds: number[] | undefined, profileIds: number[] | undefined) {
  if (testIds !== undefined) {
    await trx.deleteFrom('package_tests').where('package_id', '=', packageId).execute();
    if (testIds.length) {
      await trx
        .insertInto('package_tests')
        .values(testIds.map((test_id, position) => ({ package_id: packageId, test_id, position })))
        .execute();
    }
  }
  if (profileIds !== undefined) {
    await trx.deleteFrom('package_profiles').where('package_id', '=', packageId).execute();
    if (profileIds.length) {
      await trx
        .insertInto('package_profiles')
        .values(profileIds.map((profile_id, position) => ({ package_id: packageId, profile_id, position })))
        .execute();
    }
  }
}

/** Inside an open transaction: stores a package and its links, with price-history and audit rows. */
export async function insertPackage(trx: Db, actor: Actor, input: PackageCreate): Promise<PackageRow> {
  await assertCodeFree(trx, 'test_packages', actor.organizationId, input.code);
  await assertOwned(trx, 'tests', actor.organizationId, input.test_ids, 'test_ids');
  await assertOwned(trx, 'test_profiles', actor.organizationId, input.profile_ids, 'profile_ids');
  const now = nowIso();
  const price_paise = rupeesToPaise(input.price);
  const row = await trx
    .insertInto('test_packages')
    .values({
      organization_id: actor.organizationId,
      name: input.name,
      code: input.code,
      description: input.description ?? null,
      category: input.category ?? null,
      price_paise,
      base_price_paise: input.base_price === undefined ? price_paise : rupeesToPaise(input.base_price),
      duration: input.duration ?? null,
      status: input.status,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await setLinks(trx, row.id, input.test_ids, input.profile_ids);
  await recordPriceChange(trx, actor, 'package', row.id, null, row);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'test_package',
    entityId: row.id,
    newValues: { ...row, test_ids: input.test_ids, profile_ids: input.profile_ids },
  });
  return row;
}

export async function createPackage(db: Db, actor: Actor, input: PackageCreate): Promise<CataloguePackage> {
  return db.transaction().execute(async (trx) => (await withLinks(trx, [await insertPackage(trx, actor, input)]))[0]!);
}

export async function updatePackage(db: Db, actor: Actor, id: number, input: PackageUpdate): Promise<CataloguePackage> {
  return db.transaction().execute(async (trx) => {
    const before = await findPackage(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Test package', id);
    if (input.code && input.code !== before.code)
      await assertCodeFree(trx, 'test_packages', actor.organizationId, input.code, id);
    const old = (await withLinks(trx, [before]))[0]!;
    const { price, base_price, test_ids, profile_ids, ...rest } = input;
    if (test_ids) await assertOwned(trx, 'tests', actor.organizationId, test_ids, 'test_ids');
    if (profile_ids) await assertOwned(trx, 'test_profiles', actor.organizationId, profile_ids, 'profile_ids');
    const patch: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) patch[k] = v ?? null;
    if (price !== undefined) patch.price_paise = rupeesToPaise(price);
    if (base_price !== undefined) patch.base_price_paise = rupeesToPaise(base_price);
    const after = await trx
      .updateTable('test_packages')
      .set({ ...patch, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await setLinks(trx, id, test_ids, profile_ids);
    await recordPriceChange(trx, actor, 'package', id, before, after);
    const { oldValues, newValues } = diff(
      { ...before, test_ids: old.test_ids, profile_ids: old.profile_ids },
      { ...after, test_ids: test_ids ?? old.test_ids, profile_ids: profile_ids ?? old.profile_ids },
    );
    delete oldValues.updated_at;
    delete newValues.updated_at;
    if (Object.keys(newValues).length)
      await writeAudit(trx, actor, { action: 'update', entity: 'test_package', entityId: id, oldValues, newValues });
    return (await withLinks(trx, [after]))[0]!;
  });
}

export async function deletePackage(db: Db, actor: Actor, id: number): Promise<CataloguePackage> {
  return db.transaction().execute(async (trx) => {
    const before = await findPackage(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Test package', id);
    const bills = await trx
      .selectFrom('bill_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('package_id', '=', id)
      .executeTakeFirstOrThrow();
    const usage = describeUsage({ bill: Number(bills.n) });
    if (usage)
      throw new ConflictError(`${before.name} is used by ${usage}; deactivate it instead of deleting it`, 'IN_USE');
    const pkg = (await withLinks(trx, [before]))[0]!;
    await trx.deleteFrom('test_packages').where('id', '=', id).execute();
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'test_package',
      entityId: id,
      oldValues: { ...before, test_ids: pkg.test_ids, profile_ids: pkg.profile_ids },
    });
    return pkg;
  });
}
