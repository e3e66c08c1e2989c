import type { Db } from '../db/connection.js';
import type { CatalogueRef } from '../../shared/schemas/catalogue.js';
import { ConflictError, ValidationError } from '../errors.js';

function group<T extends { owner: number }>(rows: T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const list = m.get(r.owner) ?? [];
    list.push(r);
    m.set(r.owner, list);
  }
  return m;
}

const strip = (r: { id: number; name: string; code: string }): CatalogueRef => ({
  id: r.id,
  name: r.name,
  code: r.code,
});

/** Tests of each profile, in their stored order, in one query for the whole list. */
export async function profileTests(db: Db, profileIds: number[]): Promise<Map<number, CatalogueRef[]>> {
  if (!profileIds.length) return new Map();
  const rows = await db
    .selectFrom('profile_tests as pt')
    .innerJoin('tests as t', 't.id', 'pt.test_id')
    .select(['pt.profile_id as owner', 't.id', 't.name', 't.code'])
    .where('pt.profile_id', 'in', profileIds)
    .orderBy('pt.position')
    .execute();
  return new Map([...group(rows)].map(([k, v]) => [k, v.map(strip)]));
}

export async function packageTests(db: Db, packageIds: number[]): Promise<Map<number, CatalogueRef[]>> {
  if (!packageIds.length) return new Map();
  const rows = await db
    .selectFrom('package_tests as pt')
    .innerJoin('tests as t', 't.id', 'pt.test_id')
    .select(['pt.package_id as owner', 't.id', 't.name', 't.code'])
    .where('pt.package_id', 'in', packageIds)
    .orderBy('pt.position')
    .execute();
  return new Map([...group(rows)].map(([k, v]) => [k, v.map(strip)]));
}

export async function packageProfiles(db: Db, packageIds: number[]): Promise<Map<number, CatalogueRef[]>> {
  if (!packageIds.length) return new Map();
  const rows = await db
    .selectFrom('package_profiles as pp')
    .innerJoin('test_profiles as p', 'p.id', 'pp.profile_id')
    .select(['pp.package_id as owner', 'p.id', 'p.name', 'p.code'])
    .where('pp.package_id', 'in', packageIds)
    .orderBy('pp.position')
    .execute();
  return new Map([...group(rows)].map(([k, v]) => [k, v.map(strip)]));
}

/** Which of these ids are items of this organisation. */
export async function ownedIds(
  db: Db,
  table: 'tests' | 'test_profiles',
  organizationId: number,
  ids: number[],
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const found = await db
    .selectFrom(table)
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Set(found.map((r) => r.id));
}

/** Every id must be an item of this organisation; the error names the unknown ones. */
export async function assertOwned(
  db: Db,
  table: 'tests' | 'test_profiles',
  organizationId: number,
  ids: number[],
  field: string,
): Promise<void> {
  if (!ids.length) return;
  const have = await ownedIds(db, table, organizationId, ids);
  const missing = ids.filter((i) => !have.has(i));
  if (missing.length) throw ValidationError.field(field, `Unknown id(s): ${missing.join(', ')}`);
}

const KIND = { tests: 'test', test_profiles: 'test profile', test_packages: 'test package' } as const;

/** Codes are unique per lab (case-insensitive: the column is COLLATE NOCASE); a taken code is 409. */
export async function assertCodeFree(
  db: Db,
  table: keyof typeof KIND,
  organizationId: number,
  code: string,
  exceptId?: number,
): Promise<void> {
  let q = db.selectFrom(table).select('id').where('organization_id', '=', organizationId).where('code', '=', code);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst())
    throw new ConflictError(`A ${KIND[table]} with code ${code} already exists`, 'CODE_TAKEN');
}

const LINK_COLUMNS = {
  profile_tests: ['profile_id', 'test_id'],
  package_tests: ['package_id', 'test_id'],
  package_profiles: ['package_id', 'profile_id'],
} as const;

/** Replaces an item's links in order (position 0, 1, ...); undefined leaves them as they are. */
export async function replaceLinks(
  trx: Db,
  table: keyof typeof LINK_COLUMNS,
  ownerId: number,
  ids: number[] | undefined,
): Promise<void> {
  if (ids === undefined) return;
  const [owner, item] = LINK_COLUMNS[table];
  await trx
    .deleteFrom(table as 'package_tests')
    .where(owner as 'package_id', '=', ownerId)
    .execute();
  if (ids.length)
    await trx
      .insertInto(table as 'package_tests')
      .values(ids.map((id, position) => ({ [owner]: ownerId, [item]: id, position }) as never))
      .execute();
}
