import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import type { CatalogueListQuery, CatalogueTest, TestCreate, TestUpdate } from '../../shared/schemas/catalogue.js';
import { toTest, type TestRow } from './mappers.js';
import { recordPriceChange } from './pricing.js';
import { describeUsage } from './usage.js';
import { assertCodeFree } from './links.js';

export function findTest(db: Db, organizationId: number, id: number): Promise<TestRow | undefined> {
  return db
    .selectFrom('tests')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listTests(db: Db, organizationId: number, q: CatalogueListQuery): Promise<CatalogueTest[]> {
  let query = db.selectFrom('tests').selectAll().where('organization_id', '=', organizationId);
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
  return (await query.orderBy('name').execute()).map(toTest);
}

export async function getTest(db: Db, organizationId: number, id: number): Promise<CatalogueTest> {
  const row = await findTest(db, organizationId, id);
  if (!row) throw new NotFoundError('Test', id);
  return toTest(row);
}

/** Inside an open transaction: stores a test with its first price-history row and audit row. */
export async function insertTest(trx: Db, actor: Actor, input: TestCreate): Promise<TestRow> {
  await assertCodeFree(trx, 'tests', actor.organizationId, input.code);
  const now = nowIso();
  const price_paise = rupeesToPaise(input.price);
  const row = await trx
    .insertInto('tests')
    .values({
      organization_id: actor.organizationId,
      name: input.name,
      code: input.code,
      description: input.description ?? null,
      category: input.category ?? null,
      price_paise,
      base_price_paise: input.base_price === undefined ? price_paise : rupeesToPaise(input.base_price),
      unit: input.unit ?? null,
      normal_range: input.normal_range ?? null,
      reference_ranges: input.reference_ranges?.length ? JSON.stringify(input.reference_ranges) : null,
      sample_type: input.sample_type ?? null,
      turnaround_hours: input.turnaround_hours ?? null,
      status: input.status,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordPriceChange(trx, actor, 'test', row.id, null, row);
  await writeAudit(trx, actor, { action: 'create', entity: 'test', entityId: row.id, newValues: row });
  return row;
}

export async function createTest(db: Db, actor: Actor, input: TestCreate): Promise<CatalogueTest> {
  return toTest(await db.transaction().execute((trx) => insertTest(trx, actor, input)));
}

export async function updateTest(db: Db, actor: Actor, id: number, input: TestUpdate): Promise<CatalogueTest> {
  return db.transaction().execute(async (trx) => {
    const before = await findTest(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Test', id);
    if (input.code && input.code !== before.code)
      await assertCodeFree(trx, 'tests', actor.organizationId, input.code, id);
    const { price, base_price, reference_ranges, ...rest } = input;
    const patch: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) patch[k] = v ?? null;
    if (reference_ranges !== undefined)
      patch.reference_ranges = reference_ranges?.length ? JSON.stringify(reference_ranges) : null;
    if (price !== undefined) patch.price_paise = rupeesToPaise(price);
    if (base_price !== undefined) patch.base_price_paise = rupeesToPaise(base_price);
    const after = await trx
      .updateTable('tests')
      .set({ ...patch, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordPriceChange(trx, actor, 'test', id, before, after);
    const { oldValues, newValues } = diff(before, after);
    delete oldValues.updated_at;
    delete newValues.updated_at;
    if (Object.keys(newValues).length)
      await writeAudit(trx, actor, { action: 'update', entity: 'test', entityId: id, oldValues, newValues });
    return toTest(after);
  });
}

/** A test in a profile, package or bill is kept for the record: deactivate it instead. */
export async function deleteTest(db: Db, actor: Actor, id: number): Promise<CatalogueTest> {
  return db.transaction().execute(async (trx) => {
    const before = await findTest(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Test', id);
    const [profiles, packages, bills] = await Promise.all([
      trx
        .selectFrom('profile_tests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('test_id', '=', id)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('package_tests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('test_id', '=', id)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('bill_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('test_id', '=', id)
        .executeTakeFirstOrThrow(),
    ]);
    const usage = describeUsage({ profile: Number(profiles.n), package: Number(packages.n), bill: Number(bills.n) });
    if (usage)
      throw new ConflictError(`${before.name} is used by ${usage}; deactivate it instead of deleting it`, 'IN_USE');
    await trx.deleteFrom('tests').where('id', '=', id).execute();
    await writeAudit(trx, actor, { action: 'delete', entity: 'test', entityId: id, oldValues: before });
    return toTest(before);
  });
}
