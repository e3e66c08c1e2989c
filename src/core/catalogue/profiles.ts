import type { CatalogueProfile, ProfileCreate } from '../../shared/schemas/catalogue.js';
import { toProfile, type ProfileRow } from './mappers.js';
import { assertOwned, profileTests, replaceLinks } from './repository.js';
import { catalogueService, type ItemKind } from './items.js';

/** Test profiles: a named group of tests, kept in order. */
const PROFILE: ItemKind<ProfileRow, CatalogueProfile, ProfileCreate> = {
  table: 'test_profiles',
  priceType: 'profile',
  entity: 'test_profile',
  label: 'Test profile',
  searchCategory: true,
  columns: () => ({}),
  linkFields: ['test_ids'],
  checkLinks: async (trx, org, i) => {
    if (i.test_ids) await assertOwned(trx, 'tests', org, i.test_ids, 'test_ids');
  },
  writeLinks: (trx, id, i) => replaceLinks(trx, 'profile_tests', id, i.test_ids),
  toApi: async (db, rows) => {
    const links = await profileTests(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toProfile(r, links.get(r.id) ?? []));
  },
  usedBy: [
    { what: 'package', table: 'package_profiles', column: 'profile_id' },
    { what: 'bill', table: 'bill_items', column: 'profile_id' },
  ],
};

export const {
  find: findProfile,
  list: listProfiles,
  get: getProfile,
  insert: insertProfile,
  create: createProfile,
  update: updateProfile,
  change: changeProfile,
  remove: deleteProfile,
} = catalogueService(PROFILE);
