import type { CatalogueTest, TestCreate } from '../../shared/schemas/catalogue.js';
import { parseRange } from '../../shared/flags.js';
import { parseFormula } from '../../shared/formula.js';
import type { Db } from '../db/connection.js';
import { ValidationError } from '../errors.js';
import { jsonList, toTest, type TestRow } from './mappers.js';
import { catalogueService, present, type ItemKind } from './items.js';
import { testIdsByCode } from './repository.js';

const RULE_COLUMNS = [
  'unit',
  'normal_range',
  'sample_type',
  'turnaround_hours',
  'target_tat_minutes',
  'result_type',
  'result_template',
  'decimals',
  'plausible_low',
  'plausible_high',
  'critical_low',
  'critical_high',
  'formula',
  'container',
  'delta_limit',
  'delta_kind',
  'delta_window_days',
] as const;

const jsonOrNull = (xs: readonly unknown[] | null | undefined) => (xs?.length ? JSON.stringify(xs) : null);

/** A test created without a result type gets the one its other fields imply. */
function impliedType(i: TestCreate): string {
  if (i.result_template) return 'structured';
  if (i.formula) return 'calculated';
  if (i.choices?.length) return 'choice';
  const range = parseRange(i.normal_range);
  if (range && range.kind !== 'text') return 'numeric';
  if (range?.kind === 'text') return 'text';
  return i.unit ? 'numeric' : 'text';
}

/** Rules over the stored test as a whole, so a partial update cannot leave it inconsistent. */
async function checkTest(trx: Db, organizationId: number, r: TestRow) {
  if (r.result_type === 'choice' && jsonList(r.choices).length < 2)
    throw ValidationError.field('choices', 'A choice test needs at least two choices (e.g. Positive, Negative)');
  if (r.plausible_low != null && r.plausible_high != null && r.plausible_low >= r.plausible_high)
    throw ValidationError.field('plausible_high', 'Plausible high must be above plausible low');
  if (r.critical_low != null && r.critical_high != null && r.critical_low >= r.critical_high)
    throw ValidationError.field('critical_high', 'Critical high must be above critical low');
  if ((r.delta_limit == null) !== (r.delta_kind == null))
    throw ValidationError.field('delta_kind', 'A delta check needs both a limit and its kind (absolute or percent)');
  if (r.tax_category && r.tax_category !== 'exempt' && !r.sac_code)
    throw ValidationError.field(
      'sac_code',
      'A taxable test needs its SAC (services) or HSN (goods) code for tax invoices',
    );
  if (r.result_type === 'structured' && !r.result_template)
    throw ValidationError.field('result_template', 'A structured test needs its result template (e.g. urine_routine)');
  if (r.result_type !== 'structured' && r.result_template)
    throw ValidationError.field('result_template', 'Only a structured test has a result template');
  if (r.result_type !== 'calculated') return;
  if (!r.formula) throw ValidationError.field('formula', 'A calculated test needs a formula (e.g. CHOL - HDL - TG/5)');
  const f = parseFormula(r.formula);
  if (f.codes.includes(r.code.toUpperCase()))
    throw ValidationError.field('formula', `The formula of ${r.code} cannot use ${r.code} itself`);
  const known = await testIdsByCode(trx, organizationId, f.codes);
  const unknown = f.codes.filter((c) => !known.has(c));
  if (unknown.length)
    throw ValidationError.field('formula', `Unknown test code(s) in the formula: ${unknown.join(', ')}`);
}

/** Individual tests: their own columns are unit, ranges, sample type, tube, turnaround and result rules; no links. */
const TEST: ItemKind<TestRow, CatalogueTest, TestCreate> = {
  table: 'tests',
  priceType: 'test',
  entity: 'test',
  label: 'Test',
  searchCategory: true,
  columns: (i) => {
    const c = present(i, [...RULE_COLUMNS, 'tax_category', 'sac_code', 'method', 'loinc_code']);
    if (i.reference_ranges !== undefined) c.reference_ranges = jsonOrNull(i.reference_ranges);
    if (i.choices !== undefined) c.choices = jsonOrNull(i.choices);
    if (i.aliases !== undefined) c.aliases = jsonOrNull(i.aliases);
    return c;
  },
  insertDefaults: (i) => ({ result_type: impliedType(i) }),
  checkRow: checkTest,
  linkFields: [],
  checkLinks: async () => {},
  writeLinks: async () => {},
  toApi: async (_db, rows) => rows.map(toTest),
  usedBy: [
    { what: 'profile', table: 'profile_tests', column: 'test_id' },
    { what: 'package', table: 'package_tests', column: 'test_id' },
    { what: 'bill', table: 'bill_items', column: 'test_id' },
  ],
};

export const {
  find: findTest,
  list: listTests,
  get: getTest,
  insert: insertTest,
  create: createTest,
  update: updateTest,
  change: changeTest,
  remove: deleteTest,
} = catalogueService(TEST);
