import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import type {
  CatalogueListQuery,
  CataloguePackage,
  PackageCreate,
  PackageUpdate,
} from '../../shared/schemas/catalogue.js';
import { toPackage, type PackageRow } from './mappers.js';
import { assertOwned, packageProfiles, packageTests, replaceLinks } from './links.js';
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

/** Test packages: tests and profiles sold together, with a duration (e.g. a yearly check-up). */
const PACKAGE: ItemKind<PackageRow, CataloguePackage, PackageCreate> = {
  table: 'test_packages',
  priceType: 'package',
  entity: 'test_package',
  label: 'Test package',
  searchCategory: false,
  columns: (i) => present(i, ['duration']),
  linkFields: ['test_ids', 'profile_ids'],
  checkLinks: async (trx, org, i) => {
    if (i.test_ids) await assertOwned(trx, 'tests', org, i.test_ids, 'test_ids');
    if (i.profile_ids) await assertOwned(trx, 'test_profiles', org, i.profile_ids, 'profile_ids');
  },
  writeLinks: async (trx, id, i) => {
    await replaceLinks(trx, 'package_tests', id, i.test_ids);
    await replaceLinks(trx, 'package_profiles', id, i.profile_ids);
  },
  toApi: async (db, rows) => {
    const ids = rows.map((r) => r.id);
    const [tests, profiles] = [await packageTests(db, ids), await packageProfiles(db, ids)];
    return rows.map((r) => toPackage(r, tests.get(r.id) ?? [], profiles.get(r.id) ?? []));
  },
  usedBy: [{ what: 'bill', table: 'bill_items', column: 'package_id' }],
};

export const findPackage = (db: Db, organizationId: number, id: number) =>
  findItem<PackageRow>(db, 'test_packages', organizationId, id);
export const listPackages = (db: Db, organizationId: number, q: CatalogueListQuery) =>
  listCatalogueItems(PACKAGE, db, organizationId, q);
export const getPackage = (db: Db, organizationId: number, id: number) =>
  getCatalogueItem(PACKAGE, db, organizationId, id);
/** Inside an open transaction (the starter catalogue loads many at once). */
export const insertPackage = (trx: Db, actor: Actor, input: PackageCreate) =>
  insertCatalogueItem(PACKAGE, trx, actor, input);
export const createPackage = (db: Db, actor: Actor, input: PackageCreate) =>
  createCatalogueItem(PACKAGE, db, actor, input);
export const updatePackage = (db: Db, actor: Actor, id: number, input: PackageUpdate) =>
  updateCatalogueItem(PACKAGE, db, actor, id, input);
export const deletePackage = (db: Db, actor: Actor, id: number) => deleteCatalogueItem(PACKAGE, db, actor, id);
