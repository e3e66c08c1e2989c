import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import type { CatalogueListQuery, CatalogueTest, TestCreate, TestUpdate } from '../../shared/schemas/catalogue.js';
import { toTest, type TestRow } from './mappers.js';
import { findItem } from './repository.js';
import {
  createCatalogueItem,
  deleteCatalogueItem,
  getCatalogueItem,
  insertCatalogueItem,
  listCatalogueItems,
  present,
  updateCatalogueItem,
  type ItemKind,
} from './items.js';

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

export const findTest = (db: Db, organizationId: number, id: number) =>
  findItem<TestRow>(db, 'tests', organizationId, id);
export const listTests = (db: Db, organizationId: number, q: CatalogueListQuery) =>
  listCatalogueItems(TEST, db, organizationId, q);
export const getTest = (db: Db, organizationId: number, id: number) => getCatalogueItem(TEST, db, organizationId, id);
/** Inside an open transaction (the starter catalogue loads many at once). */
export const insertTest = (trx: Db, actor: Actor, input: TestCreate) => insertCatalogueItem(TEST, trx, actor, input);
export const createTest = (db: Db, actor: Actor, input: TestCreate) => createCatalogueItem(TEST, db, actor, input);
export const updateTest = (db: Db, actor: Actor, id: number, input: TestUpdate) =>
  updateCatalogueItem(TEST, db, actor, id, input);
export const deleteTest = (db: Db, actor: Actor, id: number) => deleteCatalogueItem(TEST, db, actor, id);
