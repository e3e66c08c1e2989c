import { z } from 'zod';
import { itemsByCodes, type ItemTable } from '../../catalogue/repository.js';
import type { ImportContext, PlanResult, ValidRow } from '../entity.js';
import { upperKey } from './common.js';

/** Helpers shared by the three catalogue entities (tests, profiles, packages). */

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
