import { z } from 'zod';
import { CATALOGUE_STATUSES } from '../../../shared/schemas/catalogue.js';
import { itemsByCodes, type ItemTable } from '../../catalogue/repository.js';
import type { ExportQuery, ImportContext, PlanResult, TransferColumn, ValidRow } from '../entity.js';
import { oneOf, upperKey } from './common.js';

/** Helpers shared by the three catalogue entities (tests, profiles, packages). */

/** The columns every catalogue item has, first in each of the three files. */
export const itemColumns: TransferColumn[] = [
  { name: 'code' },
  { name: 'name' },
  { name: 'category' },
  { name: 'description' },
  { name: 'price', kind: 'number' },
  { name: 'base_price', kind: 'number' },
];

type ItemFields = Record<'code' | 'name' | 'category' | 'description' | 'price' | 'base_price', unknown>;

/** The values of those columns for an item, as the API gives them. */
export const itemRecord = (p: ItemFields) => ({
  code: p.code,
  name: p.name,
  category: p.category,
  description: p.description,
  price: p.price,
  base_price: p.base_price,
});

/** A catalogue item is found by its code (any case) and cannot be made without a name and a price. */
export const itemKey = {
  key: 'code',
  normalizeKey: upperKey,
  requiredColumns: ['code', 'name', 'price'],
};

/** An export of catalogue items is narrowed by status and category, as the catalogue's lists are. */
export const itemFilters = { status: oneOf(CATALOGUE_STATUSES), category: z.string().trim().min(1).max(60) };

/** The export's filters as the options of the catalogue's list functions. */
export const itemListOptions = (q: ExportQuery) => ({
  status: q.where.status as 'active' | 'inactive' | undefined,
  category: q.where.category as string | undefined,
});

/** A list of catalogue codes in a file (test_codes, profile_codes): "CBC, LFT" or ["CBC", "LFT"]. */
export const codeList = (label: string) =>
  z
    .array(
      z
        .string({ error: `${label} must be codes` })
        .trim()
        .min(1)
        .max(30, `${label}: a code has at most 30 characters`),
      {
        error: `${label} must be a list of codes`,
      },
    )
    .max(200, `${label}: at most 200`)
    .transform((xs) => [...new Set(xs.map(upperKey))]);

/** The ids of codes of a kind, for the rows of a batch; the codes nobody has, by row. */
export async function resolveCodes(
  ctx: ImportContext,
  table: ItemTable,
  lists: (readonly string[] | undefined)[],
): Promise<{ ids: (number[] | undefined)[]; unknown: string[][] }> {
  const all = [...new Set(lists.flatMap((l) => l ?? []))];
  const found = all.length
    ? await itemsByCodes<{ id: number; code: string }>(ctx.db, table, ctx.organizationId, all)
    : new Map();
  return {
    ids: lists.map((l) => l?.filter((c) => found.has(c)).map((c) => found.get(c)!.id)),
    unknown: lists.map((l) => (l ?? []).filter((c) => !found.has(c))),
  };
}

export type CatalogueExisting = { id: number; code: string };
export type CataloguePlan<I> = { row: number; id: number | null; input: I };

/** Stores the planned rows through the catalogue's own service (price history and audit rows included). */
export async function writeCatalogue<I>(
  ctx: ImportContext,
  plans: CataloguePlan<I>[],
  insert: (trx: ImportContext['db'], actor: ImportContext['actor'], input: I) => Promise<unknown>,
  change: (trx: ImportContext['db'], actor: ImportContext['actor'], id: number, input: Partial<I>) => Promise<unknown>,
) {
  let inserted = 0;
  let updated = 0;
  for (const p of plans) {
    const done = await ctx.attempt(p.row, () =>
      p.id === null ? insert(ctx.db, ctx.actor, p.input) : change(ctx.db, ctx.actor, p.id, p.input),
    );
    if (done === undefined) continue;
    if (p.id === null) inserted += 1;
    else updated += 1;
  }
  return { inserted, updated };
}

/** A plan for each row whose link codes (tests, profiles) all exist; the unknown ones are that row's error. */
export async function planLinks<I extends Record<string, unknown>>(
  ctx: ImportContext,
  rows: ValidRow<I, CatalogueExisting>[],
  links: { codes: string; ids: string; table: ItemTable; what: string }[],
): Promise<PlanResult<CataloguePlan<I>>[]> {
  const resolved = await Promise.all(
    links.map((l) =>
      resolveCodes(
        ctx,
        l.table,
        rows.map((r) => r.input[l.codes] as string[] | undefined),
      ),
    ),
  );
  return rows.map((r, i) => {
    const errors = links.flatMap((l, k) => {
      const unknown = resolved[k]!.unknown[i]!;
      return unknown.length
        ? [
            {
              column: l.codes,
              message: `no ${l.what} with code${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} (import the ${l.what}s first)`,
            },
          ]
        : [];
    });
    if (errors.length) return { row: r.row, errors };
    const input: Record<string, unknown> = { ...r.input };
    links.forEach((l, k) => {
      delete input[l.codes];
      const ids = resolved[k]!.ids[i];
      if (ids !== undefined) input[l.ids] = ids;
    });
    return { row: r.row, plan: { row: r.row, id: r.existing?.id ?? null, input: input as I } };
  });
}
