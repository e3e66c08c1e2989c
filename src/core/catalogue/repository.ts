import { sql, type Insertable } from 'kysely';
import type { PriceHistoryTable } from './tables.js';
import type { Db } from '../db/connection.js';
import type { CatalogueListQuery, CatalogueRef } from '../../shared/schemas/catalogue.js';
import { ConflictError, ValidationError } from '../errors.js';
import { catalogueMatches, searchAlternatives, type Searchable } from '../../shared/catalogueSearch.js';
import { labRows } from '../db/joins.js';
import { rowsByKeys } from '../db/dialect.js';

/**
 * SQL of the catalogue's three item kinds (tests, profiles, packages): their tables share the
 * common columns (name, code, description, category, prices, status, times), so one set of
 * queries serves all three. The link tables (profile_tests, package_tests, package_profiles) and
 * the price history rows are here too; pricing.ts keeps the rule of when a change is recorded.
 */
export type ItemTable = 'tests' | 'test_profiles' | 'test_packages';

/** Kysely types each table separately; the shared columns are the same in all three. */
const as = (table: ItemTable) => table as 'tests';

export function findItem<R>(db: Db, table: ItemTable, organizationId: number, id: number): Promise<R | undefined> {
  return db
    .selectFrom(as(table))
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<R | undefined>;
}

/**
 * The list filters of the catalogue screens. Search is the shared catalogue search (name, code,
 * description, category, aliases, synonyms, spellings) run over the lab's rows: a catalogue is a
 * few hundred items, and one function means the pickers and the server find the same things.
 */
export async function listItems<R>(
  db: Db,
  table: ItemTable,
  organizationId: number,
  q: CatalogueListQuery,
  searchCategory: boolean,
): Promise<R[]> {
  let query = db.selectFrom(as(table)).selectAll().where('organization_id', '=', organizationId);
  if (q.category) query = query.where('category', '=', q.category);
  if (q.status) query = query.where('status', '=', q.status);
  const rows = (await query.orderBy('name').execute()) as (R & Searchable & { aliases?: string | null })[];
  if (!q.search) return rows;
  const alternatives = searchAlternatives(q.search);
  return rows.filter((r) =>
    catalogueMatches(
      {
        name: r.name,
        code: r.code,
        description: r.description,
        category: searchCategory ? r.category : null,
        aliases: typeof r.aliases === 'string' ? (JSON.parse(r.aliases) as string[]) : null,
      },
      q.search!,
      alternatives,
    ),
  );
}

/** The lab's active items of one kind, by name, with their price. */
export function activeItems(db: Db, table: ItemTable, organizationId: number) {
  return db
    .selectFrom(as(table))
    .select(['id', 'name', 'code', 'price_paise'])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .orderBy('name')
    .execute();
}

/** Tests of the lab by code (upper case), for formulas that name them. */
export async function testIdsByCode(db: Db, organizationId: number, codes: string[]): Promise<Map<string, number>> {
  if (!codes.length) return new Map();
  const rows = await db
    .selectFrom('tests')
    .select(['id', 'code'])
    .where('organization_id', '=', organizationId)
    .where(sql<string>`upper(code)`, 'in', codes)
    .execute();
  return new Map(rows.map((r) => [r.code.toUpperCase(), r.id]));
}

/** The codes a report out names a test by: the lab's own code and its LOINC code. */
export async function testCodings(
  db: Db,
  organizationId: number,
  ids: number[],
): Promise<Map<number, { code: string; loinc_code: string | null }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('tests')
    .select(['id', 'code', 'loinc_code'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { code: r.code, loinc_code: r.loinc_code }]));
}

export function insertItem<R>(trx: Db, table: ItemTable, values: Record<string, unknown>): Promise<R> {
  return trx
    .insertInto(as(table))
    .values(values as never)
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<R>;
}

export function updateItem<R>(trx: Db, table: ItemTable, id: number, patch: Record<string, unknown>): Promise<R> {
  return trx
    .updateTable(as(table))
    .set(patch as never)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<R>;
}

export async function deleteItem(trx: Db, table: ItemTable, id: number): Promise<void> {
  await trx.deleteFrom(as(table)).where('id', '=', id).execute();
}

/** Where a catalogue item is used: a link or bill table and the column that names the item. */
export interface UsageSource {
  what: string;
  table: 'profile_tests' | 'package_tests' | 'package_profiles' | 'bill_items';
  column: 'test_id' | 'profile_id' | 'package_id';
}

/** How many rows of each source use the item, by the source's noun ("profile", "bill"). */
export async function countUsage(
  trx: Db,
  sources: readonly UsageSource[],
  id: number,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of sources) {
    const r = await trx
      .selectFrom(s.table as 'bill_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(s.column as 'test_id', '=', id)
      .executeTakeFirstOrThrow();
    out[s.what] = Number(r.n);
  }
  return out;
}

/** The tube facts of tests (their own tube, else the sample type's usual one), in the order given. */
export async function testTubes(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db.selectFrom('tests').select(['id', 'container', 'sample_type']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export async function insertPriceChange(trx: Db, values: Insertable<PriceHistoryTable>): Promise<void> {
  await trx.insertInto('price_history').values(values).execute();
}

/** An item's price changes, newest first. */
export function priceChangesOf(db: Db, organizationId: number, itemType: string, itemId: number) {
  return labRows(db, 'price_history', organizationId)
    .where('item_type', '=', itemType)
    .where('item_id', '=', itemId)
    .orderBy('id', 'desc')
    .execute();
}

// Links between items (a profile's tests, a package's tests and profiles) and the code checks.
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

/** A link table of the catalogue: which owner column it has, and which items (table, column) it lists. */
interface LinkTable {
  table: 'profile_tests' | 'package_tests' | 'package_profiles';
  owner: 'profile_id' | 'package_id';
  items: 'tests' | 'test_profiles';
  item: 'test_id' | 'profile_id';
}

/** The items linked to each owner, in their stored order, in one query for the whole list. */
async function linkedItems(db: Db, link: LinkTable, ownerIds: number[]): Promise<Map<number, CatalogueRef[]>> {
  if (!ownerIds.length) return new Map();
  // The three link tables share these columns; Kysely cannot type a table named by a value, hence the casts.
  const owner = sql.ref<number>(`l.${link.owner}`);
  const rows = await db
    .selectFrom(`${link.table} as l` as 'profile_tests as l')
    .innerJoin(`${link.items} as i` as 'tests as i', 'i.id', `l.${link.item}` as 'l.test_id')
    .select([owner.as('owner'), 'i.id', 'i.name', 'i.code'])
    .where(owner, 'in', ownerIds)
    .orderBy('l.position')
    .execute();
  return new Map([...group(rows)].map(([k, v]) => [k, v.map(strip)]));
}

/** Tests of each profile, in their stored order, in one query for the whole list. */
export const profileTests = (db: Db, profileIds: number[]) =>
  linkedItems(db, { table: 'profile_tests', owner: 'profile_id', items: 'tests', item: 'test_id' }, profileIds);

export const packageTests = (db: Db, packageIds: number[]) =>
  linkedItems(db, { table: 'package_tests', owner: 'package_id', items: 'tests', item: 'test_id' }, packageIds);

export const packageProfiles = (db: Db, packageIds: number[]) =>
  linkedItems(
    db,
    { table: 'package_profiles', owner: 'package_id', items: 'test_profiles', item: 'profile_id' },
    packageIds,
  );

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

/** Every item of a kind by code (upper case), for the starter catalogue's links by code. */
export async function codesOf(db: Db, table: ItemTable, organizationId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom(as(table))
    .select(['id', 'code'])
    .where('organization_id', '=', organizationId)
    .execute();
  return new Map(rows.map((r) => [r.code.toUpperCase(), r.id]));
}

/** The lab's items of a kind with these codes (upper case), by code: an import's look-up by natural key. */
export async function itemsByCodes<R extends { code: string }>(
  db: Db,
  table: ItemTable,
  organizationId: number,
  codes: readonly string[],
): Promise<Map<string, R>> {
  const rows = await rowsByKeys(
    codes,
    async (some) =>
      (await db
        .selectFrom(as(table))
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where(sql<string>`upper(code)`, 'in', some)
        .execute()) as unknown as R[],
  );
  return new Map(rows.map((r) => [r.code.toUpperCase(), r]));
}
