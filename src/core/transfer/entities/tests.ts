import { z } from 'zod';
import {
  testCreateSchema,
  testUpdateSchema,
  type CatalogueTest,
  type TestCreate,
} from '../../../shared/schemas/catalogue.js';
import { parseFormula } from '../../../shared/formula.js';
import { changeTest, insertTest, listTests, bandsText, parseBandsText } from '../../catalogue/service.js';
import { codesOf, itemsByCodes } from '../../catalogue/repository.js';
import { DEFERRED, type TransferColumn, type TransferEntity } from '../entity.js';
import { pagesOf } from './common.js';
import { itemColumns, itemFilters, itemKey, itemListOptions, writeCatalogue } from './catalogue.js';
import type { CatalogueExisting, CataloguePlan } from './catalogue.js';

/**
 * The test menu, keyed by test code. Every field of the API's test but its id and times; reference
 * ranges as bands in one cell (catalogue/range-text.ts), choices and aliases as lists ("Positive, Negative"). A calculated test waits for
 * the end of the file, so its formula may name tests further down.
 */

const columns: TransferColumn[] = [
  ...itemColumns,
  { name: 'unit' },
  { name: 'normal_range' },
  { name: 'reference_ranges' },
  { name: 'sample_type' },
  { name: 'container' },
  { name: 'turnaround_hours', kind: 'number' },
  { name: 'target_tat_minutes', kind: 'number' },
  { name: 'result_type' },
  { name: 'result_template' },
  { name: 'decimals', kind: 'number' },
  { name: 'plausible_low', kind: 'number' },
  { name: 'plausible_high', kind: 'number' },
  { name: 'critical_low', kind: 'number' },
  { name: 'critical_high', kind: 'number' },
  { name: 'choices', kind: 'list' },
  { name: 'formula' },
  { name: 'delta_limit', kind: 'number' },
  { name: 'delta_kind' },
  { name: 'delta_window_days', kind: 'number' },
  { name: 'aliases', kind: 'list' },
  { name: 'loinc_code' },
  { name: 'status' },
];

type Plan = CataloguePlan<TestCreate>;

/** A bands cell (text, or the API's JSON list) as the API's list; a band it cannot read is named. */
function bandsCell(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (t === '') return null;
  if (t.startsWith('[')) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'the bands start with "[" but are not a valid JSON list' });
      return z.NEVER;
    }
  }
  const parsed = parseBandsText(t);
  if ('bands' in parsed) return parsed.bands;
  ctx.addIssue({ code: 'custom', path: [parsed.index], message: parsed.message });
  return z.NEVER;
}

const bandsField = z.preprocess(bandsCell, testCreateSchema.shape.reference_ranges);
const createSchema = testCreateSchema.extend({ reference_ranges: bandsField });
const updateSchema = testUpdateSchema.extend({ reference_ranges: bandsField });

export const tests: TransferEntity<TestCreate, CatalogueExisting, Plan> = {
  name: 'tests',
  label: 'test',
  auditEntity: 'test',
  columns,
  ...itemKey,
  createSchema,
  updateSchema,

  findExisting: (ctx, keys) => itemsByCodes(ctx.db, 'tests', ctx.organizationId, keys),

  async plan(ctx, rows) {
    return rows.map((r) => {
      const plan: Plan = { row: r.row, id: r.existing?.id ?? null, input: r.input };
      // A formula names other tests: checked and stored once the whole file is read.
      if (r.input.formula) {
        ctx.deferred.push({ row: r.row, plan });
        return { row: r.row, plan: DEFERRED as unknown as Plan };
      }
      return { row: r.row, plan };
    });
  },

  write: (ctx, plans) => writeCatalogue(ctx, plans, insertTest, changeTest),

  async finish(ctx, write) {
    const waiting = ctx.deferred as { row: number; plan: Plan }[];
    const errors: { row: number; column: string; message: string }[] = [];
    let inserted = 0;
    let updated = 0;
    if (!waiting.length) return { inserted, updated, errors };
    const stored = new Set((await codesOf(ctx.db, 'tests', ctx.organizationId)).keys());
    const ready: { row: number; plan: Plan; needs: string[] }[] = [];
    for (const w of waiting) {
      const needs = parseFormula(w.plan.input.formula!).codes;
      const missing = needs.filter((c) => !stored.has(c) && !ctx.keysInFile.has(c));
      if (missing.length)
        errors.push({
          row: w.row,
          column: 'formula',
          message: `the formula uses ${missing.join(', ')}, which is neither in the catalogue nor in the file`,
        });
      else ready.push({ ...w, needs });
    }
    // A dry run (or a file with errors) says what would be stored, and stores nothing.
    if (!write || errors.length)
      return {
        inserted: ready.filter((w) => w.plan.id === null).length,
        updated: ready.filter((w) => w.plan.id !== null).length,
        errors,
      };
    // Inputs first: a calculated test whose formula names another calculated test waits for it.
    let left = ready;
    while (left.length) {
      const have = new Set((await codesOf(ctx.db, 'tests', ctx.organizationId)).keys());
      const now = left.filter((w) => w.needs.every((c) => have.has(c)));
      if (!now.length) {
        for (const w of left)
          errors.push({
            row: w.row,
            column: 'formula',
            message: 'the formulas of these tests name each other in a loop',
          });
        break;
      }
      const counts = await writeCatalogue(
        ctx,
        now.map((w) => w.plan),
        insertTest,
        changeTest,
      );
      inserted += counts.inserted;
      updated += counts.updated;
      if (counts.inserted + counts.updated < now.length) break;
      left = left.filter((w) => !now.includes(w));
    }
    return { inserted, updated, errors };
  },

  filters: itemFilters,
  async *exportPages(db, organizationId, q) {
    const list = await listTests(db, organizationId, itemListOptions(q));
    const records = list.map((t: CatalogueTest) =>
      Object.fromEntries(
        columns.map((c) => [
          c.name,
          c.name === 'reference_ranges' ? bandsText(t.reference_ranges) : t[c.name as keyof CatalogueTest],
        ]),
      ),
    );
    yield* pagesOf(records);
  },
};
