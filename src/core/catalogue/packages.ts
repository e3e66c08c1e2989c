import type { CataloguePackage, PackageCreate } from '../../shared/schemas/catalogue.js';
import { toPackage, type PackageRow } from './mappers.js';
import { assertOwned, packageProfiles, packageTests, replaceLinks } from './repository.js';
import { catalogueService, present, type ItemKind } from './items.js';

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

export const {
  find: findPackage,
  list: listPackages,
  get: getPackage,
  insert: insertPackage,
  create: createPackage,
  update: updatePackage,
  change: changePackage,
  remove: deletePackage,
} = catalogueService(PACKAGE);
