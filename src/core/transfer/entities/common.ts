import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { organizationTimezone } from '../../settings/service.js';
import { addDays, startOfLocalDayUtc } from '../../../shared/time.js';
import { isoDate } from '../../../shared/schemas/common.js';
import type { ExportQuery, ImportContext, PlanResult, ValidRow, WriteCounts } from '../entity.js';
import { itemsByCodes, type ItemTable } from '../../catalogue/repository.js';

/** Codes compare upper-case (test codes, patient codes), emails lower-case. */
export const upperKey = (raw: string) => raw.trim().toUpperCase();
export const lowerKey = (raw: string) => raw.trim().toLowerCase();

/** --from/--to (the lab's calendar days) as a UTC range of stored instants: [from, before). */
export async function utcRangeOf(
  db: Db,
  organizationId: number,
  q: ExportQuery,
): Promise<{ from?: string; before?: string }> {
  if (!q.from && !q.to) return {};
  const tz = await organizationTimezone(db, organizationId);
  return {
    ...(q.from && { from: startOfLocalDayUtc(tz, q.from).toISOString() }),
    ...(q.to && { before: startOfLocalDayUtc(tz, addDays(q.to, 1)).toISOString() }),
  };
}

/**
 * A moment an earlier system recorded (registered, billed, collected): a real instant, not in the
 * future. Cells are turned into ISO text by the column kind 'timestamp'.
 */
export const pastInstant = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.iso
      .datetime({ offset: true, error: `${label} must be a date and time` })
      .refine((t) => new Date(t).getTime() <= Date.now() + 5 * 60_000, `${label} cannot be in the future`)
      .refine((t) => new Date(t).getUTCFullYear() >= 1900, `${label} must be after 1900`)
      .optional(),
  );

/** A filter value that is one of a list (--where gender=Female). */
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const dayFilter = isoDate('date');

/**
 * An update matched by a key compared without case keeps the stored spelling: the file's key cell
 * finds the record and does not rename it ("glu-r1" updates GLU-R1).
 */
export function keepKey<T extends object>(input: T, existing: unknown, key: string): T {
  if (existing === undefined) return input;
  const { [key]: _key, ...rest } = input as Record<string, unknown>;
  return rest as T;
}

/** The plan of an entity keyed by one natural key: a new record, or the update of the one its key matched. */
export type KeyedPlan<Input> = { row: number; id: number | null; input: Input };

/** Plans every row as new or as an update of the matched record (its key cell not renaming it). */
export async function planByKey<Input extends object>(
  rows: ValidRow<Input, { id: number } | undefined>[],
  key: string,
): Promise<PlanResult<KeyedPlan<Input>>[]> {
  return rows.map((r) => ({
    row: r.row,
    plan: { row: r.row, id: r.existing?.id ?? null, input: keepKey(r.input, r.existing, key) },
  }));
}

/**
 * Writes plans that only insert (historical bills, samples, results): each through ctx.attempt under
 * its row number, the plan without `row` handed to `insert`; counts the rows stored.
 */
export async function insertEach<Plan extends { row: number }>(
  ctx: ImportContext,
  plans: Plan[],
  insert: (record: Omit<Plan, 'row'>) => Promise<unknown>,
): Promise<WriteCounts> {
  let inserted = 0;
  for (const p of plans) {
    const { row, ...record } = p;
    if ((await ctx.attempt(row, () => insert(record))) !== undefined) inserted += 1;
  }
  return { inserted, updated: 0 };
}

/**
 * Stores keyed plans through the feature's in-transaction functions (each audited), a row at a time
 * inside ctx.attempt (a rule the service enforces becomes that row's error).
 */
export async function writeByKey<Input>(
  ctx: ImportContext,
  plans: KeyedPlan<Input>[],
  insert: (input: Input) => Promise<unknown>,
  update: (id: number, input: Input) => Promise<unknown>,
): Promise<WriteCounts> {
  let inserted = 0;
  let updated = 0;
  for (const p of plans) {
    const done = await ctx.attempt(p.row, async () => {
      if (p.id === null) await insert(p.input);
      else await update(p.id, p.input);
      return true;
    });
    if (done && p.id === null) inserted += 1;
    else if (done) updated += 1;
  }
  return { inserted, updated };
}

/**
 * The plan and write of an entity keyed by one natural key whose rows the feature stores through
 * its own in-transaction create and update (each audited): planByKey, then writeByKey.
 */
export function keyedWrites<Input extends object>(
  key: string,
  insert: (ctx: ImportContext, input: Input) => Promise<unknown>,
  update: (ctx: ImportContext, id: number, input: Input) => Promise<unknown>,
) {
  return {
    plan: async (_ctx: ImportContext, rows: ValidRow<Input, { id: number } | undefined>[]) => planByKey(rows, key),
    write: (ctx: ImportContext, plans: KeyedPlan<Input>[]) =>
      writeByKey(
        ctx,
        plans,
        (input) => insert(ctx, input),
        (id, input) => update(ctx, id, input),
      ),
  };
}

/** A record for export: the row's value of each column, keyed by the column's name. */
export const recordOf = (columns: readonly { name: string }[], row: object): Record<string, unknown> =>
  Object.fromEntries(columns.map((c) => [c.name, (row as Record<string, unknown>)[c.name]]));

const ITEM_TABLES: Record<'test' | 'profile' | 'package', ItemTable> = {
  test: 'tests',
  profile: 'test_profiles',
  package: 'test_packages',
};

/**
 * The lab's catalogue items named by type and (upper-case) code, as a map keyed `type:CODE`: the
 * lines of a bill, the entries of a price list. A type that is not test, profile or package finds nothing.
 */
export async function catalogueItemsNamed<R extends { id: number; code: string }>(
  db: Db,
  organizationId: number,
  wanted: readonly { type: string; code: string }[],
): Promise<Map<string, R>> {
  const out = new Map<string, R>();
  for (const [type, table] of Object.entries(ITEM_TABLES)) {
    const codes = [...new Set(wanted.filter((w) => w.type === type).map((w) => w.code))];
    if (!codes.length) continue;
    for (const [code, item] of await itemsByCodes<R>(db, table, organizationId, codes))
      out.set(`${type}:${code}`, item);
  }
  return out;
}

/** What reads one page of a dated export: rows after an id, at most `limit`, made in the range. */
export type ExportPageReader<Row> = (
  db: Db,
  organizationId: number,
  f: { afterId: number; limit: number; fromIso?: string; beforeIso?: string },
) => Promise<Row[]>;

/**
 * A dated export's records, read 500 rows at a time after the last row's id, so a year of rows is
 * never held at once. `toRecords` turns a page of rows into records (reading what else it needs,
 * dropping what --where refuses); a page it leaves empty is not handed out.
 */
export async function* keysetPages<Row extends { id: number }, Rec>(
  db: Db,
  organizationId: number,
  q: ExportQuery,
  read: ExportPageReader<Row>,
  toRecords: (rows: Row[]) => Rec[] | Promise<Rec[]>,
): AsyncGenerator<Rec[]> {
  const range = await utcRangeOf(db, organizationId, q);
  for (let afterId = 0; ;) {
    const rows = await read(db, organizationId, { afterId, limit: 500, fromIso: range.from, beforeIso: range.before });
    if (!rows.length) return;
    afterId = rows[rows.length - 1]!.id;
    const page = await toRecords(rows);
    if (page.length) yield page;
    if (rows.length < 500) return;
  }
}

/** Records read whole, handed out in pages of 500 as exportPages promises. */
export function* pagesOf<R>(records: R[]): Generator<R[]> {
  for (let i = 0; i < records.length; i += 500) yield records.slice(i, i + 500);
}
