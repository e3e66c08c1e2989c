import type { CatalogueTest, TestCreate } from '../../shared/schemas/catalogue.js';
import { toTest, type TestRow } from './mappers.js';
import { catalogueService, present, type ItemKind } from './items.js';

/** Individual tests: their own columns are unit, ranges, sample type and turnaround; no links. */
const TEST: ItemKind<TestRow, CatalogueTest, TestCreate> = {
  table: 'tests',
  priceType: 'test',
  entity: 'test',
  label: 'Test',
  searchCategory: true,
  columns: (i) => {
    const c = present(i, ['unit', 'normal_range', 'sample_type', 'turnaround_hours']);
    if (i.reference_ranges !== undefined)
      c.reference_ranges = i.reference_ranges?.length ? JSON.stringify(i.reference_ranges) : null;
    return c;
  },
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
  remove: deleteTest,
} = catalogueService(TEST);
