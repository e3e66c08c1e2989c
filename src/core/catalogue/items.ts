import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import type { CatalogueListQuery } from '../../shared/schemas/catalogue.js';
import { assertCodeFree } from './repository.js';
import { recordPriceChange } from './pricing.js';
import { describeUsage } from './usage.js';
import {
  countUsage,
  deleteItem,
  findItem,
  insertItem,
  listItems,
  updateItem,
  type ItemTable,
  type UsageSource,
} from './repository.js';

/** The columns every catalogue item has. */
export interface ItemRow {
  id: number;
  name: string;
  code: string;
  price_paise: number;
  base_price_paise: number;
  created_at: string;
  updated_at: string;
}

/** What every create/update body carries (update: any of it). */
interface ItemInput {
  name: string;
  code: string;
  description?: string | null;
  category?: string | null;
  price: number;
  base_price?: number;
  status: string;
}

/**
 * One kind of catalogue item (test, profile, package): its table and words, the columns of its own,
 * its links to other items (a profile's tests, a package's tests and profiles), and what may use it.
 * The create/update/delete rules, price history and audit rows are the same for all three (below).
 */
export interface ItemKind<Row extends ItemRow, Api, Create extends ItemInput> {
  table: ItemTable;
  /** Price-history item type. */
  priceType: 'test' | 'profile' | 'package';
  /** Audit entity. */
  entity: 'test' | 'test_profile' | 'test_package';
  /** "Test profile": not-found messages. */
  label: string;
  searchCategory: boolean;
  /** This kind's own columns from a (partial) input; undefined fields are left out. */
  columns(input: Partial<Create>): Record<string, unknown>;
  /** The link lists of the input (test_ids, profile_ids); checked, stored, and shown in the audit. */
  linkFields: readonly (keyof Create & string)[];
  checkLinks(trx: Db, organizationId: number, input: Partial<Create>): Promise<void>;
  writeLinks(trx: Db, id: number, input: Partial<Create>): Promise<void>;
  /** Rows to API objects with their links, in one query per link table for the whole list. */
  toApi(db: Db, rows: Row[]): Promise<Api[]>;
  usedBy: readonly UsageSource[];
  /** Columns a new item gets when the input leaves them out (worked out from what it does say). */
  insertDefaults?(input: Create): Record<string, unknown>;
  /** Rules over the stored row as a whole (after a create or an update, inside its transaction). */
  checkRow?(trx: Db, organizationId: number, row: Row): Promise<void>;
}

const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The given fields of an input that are present, with an explicit null kept as null. */
export function present<T extends object>(input: Partial<T>, keys: readonly (keyof T & string)[]) {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (input[k] !== undefined) out[k] = input[k] ?? null;
  return out;
}

function linksOf<C extends ItemInput>(kind: { linkFields: readonly string[] }, api: unknown, input?: Partial<C>) {
  const out: Record<string, unknown> = {};
  for (const f of kind.linkFields) {
    const given = input?.[f as keyof C];
    out[f] = given !== undefined ? given : (api as Record<string, unknown>)[f];
  }
  return out;
}

export async function listCatalogueItems<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  db: Db,
  organizationId: number,
  q: CatalogueListQuery,
): Promise<A[]> {
  return kind.toApi(db, await listItems<R>(db, kind.table, organizationId, q, kind.searchCategory));
}

async function mustFind<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  db: Db,
  organizationId: number,
  id: number,
): Promise<R> {
  const row = await findItem<R>(db, kind.table, organizationId, id);
  if (!row) throw new NotFoundError(kind.label, id);
  return row;
}

export async function getCatalogueItem<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  db: Db,
  organizationId: number,
  id: number,
): Promise<A> {
  return (await kind.toApi(db, [await mustFind(kind, db, organizationId, id)]))[0]!;
}

/** Inside an open transaction: stores an item and its links, with its first price-history and audit rows. */
export async function insertCatalogueItem<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  trx: Db,
  actor: Actor,
  input: C,
): Promise<R> {
  await assertCodeFree(trx, kind.table, actor.organizationId, input.code);
  await kind.checkLinks(trx, actor.organizationId, input);
  const now = nowIso();
  const price_paise = rupeesToPaise(input.price);
  const row = await insertItem<R>(trx, kind.table, {
    organization_id: actor.organizationId,
    name: input.name,
    code: input.code,
    description: input.description ?? null,
    category: input.category ?? null,
    price_paise,
    base_price_paise: input.base_price === undefined ? price_paise : rupeesToPaise(input.base_price),
    ...kind.insertDefaults?.(input),
    ...kind.columns(input),
    status: input.status,
    created_at: now,
    updated_at: now,
  });
  await kind.checkRow?.(trx, actor.organizationId, row);
  await kind.writeLinks(trx, row.id, input);
  await recordPriceChange(trx, actor, kind.priceType, row.id, null, row);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: kind.entity,
    entityId: row.id,
    newValues: { ...row, ...linksOf(kind, input) },
  });
  return row;
}

export async function createCatalogueItem<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  db: Db,
  actor: Actor,
  input: C,
): Promise<A> {
  return db
    .transaction()
    .execute(async (trx) => (await kind.toApi(trx, [await insertCatalogueItem(kind, trx, actor, input)]))[0]!);
}

export async function updateCatalogueItem<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  db: Db,
  actor: Actor,
  id: number,
  input: Partial<C>,
): Promise<A> {
  return db.transaction().execute((trx) => applyCatalogueItemUpdate(kind, trx, actor, id, input));
}

/** Inside an open transaction: the update of one item, with its price history and audit rows (an import's rows). */
export async function applyCatalogueItemUpdate<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  trx: Db,
  actor: Actor,
  id: number,
  input: Partial<C>,
): Promise<A> {
  const before = await mustFind(kind, trx, actor.organizationId, id);
  if (input.code && input.code !== before.code)
    await assertCodeFree(trx, kind.table, actor.organizationId, input.code, id);
  const old = kind.linkFields.length ? (await kind.toApi(trx, [before]))[0] : undefined;
  await kind.checkLinks(trx, actor.organizationId, input);
  const { price, base_price, name, code, description, category, status } = input;
  const patch = defined({ name, code, status, ...kind.columns(input) });
  if (description !== undefined) patch.description = description ?? null;
  if (category !== undefined) patch.category = category ?? null;
  if (price !== undefined) patch.price_paise = rupeesToPaise(price);
  if (base_price !== undefined) patch.base_price_paise = rupeesToPaise(base_price);
  const after = await updateItem<R>(trx, kind.table, id, { ...patch, updated_at: nowIso() });
  await kind.checkRow?.(trx, actor.organizationId, after);
  await kind.writeLinks(trx, id, input);
  await recordPriceChange(trx, actor, kind.priceType, id, before, after);
  const { oldValues, newValues } = diff(
    { ...before, ...linksOf(kind, old) },
    { ...after, ...linksOf(kind, old, input) },
  );
  delete oldValues.updated_at;
  delete newValues.updated_at;
  if (Object.keys(newValues).length)
    await writeAudit(trx, actor, { action: 'update', entity: kind.entity, entityId: id, oldValues, newValues });
  return (await kind.toApi(trx, [after]))[0]!;
}

/** An item that a profile, package or bill uses is kept for the record: deactivate it instead. */
export async function deleteCatalogueItem<R extends ItemRow, A, C extends ItemInput>(
  kind: ItemKind<R, A, C>,
  db: Db,
  actor: Actor,
  id: number,
): Promise<A> {
  return db.transaction().execute(async (trx) => {
    const before = await mustFind(kind, trx, actor.organizationId, id);
    const usage = describeUsage(await countUsage(trx, kind.usedBy, id));
    if (usage)
      throw new ConflictError(`${before.name} is used by ${usage}; deactivate it instead of deleting it`, 'IN_USE');
    const item = (await kind.toApi(trx, [before]))[0]!;
    await deleteItem(trx, kind.table, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: kind.entity,
      entityId: id,
      oldValues: { ...before, ...linksOf(kind, item) },
    });
    return item;
  });
}

/** The service functions of one kind, named by the kind's module (listTests, createProfile, ...). */
export function catalogueService<R extends ItemRow, A, C extends ItemInput>(kind: ItemKind<R, A, C>) {
  return {
    find: (db: Db, organizationId: number, id: number) => findItem<R>(db, kind.table, organizationId, id),
    list: (db: Db, organizationId: number, q: CatalogueListQuery) => listCatalogueItems(kind, db, organizationId, q),
    get: (db: Db, organizationId: number, id: number) => getCatalogueItem(kind, db, organizationId, id),
    /** Inside an open transaction (the starter catalogue loads many at once). */
    insert: (trx: Db, actor: Actor, input: C) => insertCatalogueItem(kind, trx, actor, input),
    create: (db: Db, actor: Actor, input: C) => createCatalogueItem(kind, db, actor, input),
    update: (db: Db, actor: Actor, id: number, input: Partial<C>) => updateCatalogueItem(kind, db, actor, id, input),
    /** Inside an open transaction (an import updates many at once). */
    change: (trx: Db, actor: Actor, id: number, input: Partial<C>) =>
      applyCatalogueItemUpdate(kind, trx, actor, id, input),
    remove: (db: Db, actor: Actor, id: number) => deleteCatalogueItem(kind, db, actor, id),
  };
}
