import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import type {
  CatalogueListQuery,
  CatalogueProfile,
  ProfileCreate,
  ProfileUpdate,
} from '../../shared/schemas/catalogue.js';
import { toProfile, type ProfileRow } from './mappers.js';
import { assertOwned, profileTests, replaceLinks } from './links.js';
import { findItem } from './repository.js';
import {
  createCatalogueItem,
  deleteCatalogueItem,
  getCatalogueItem,
  insertCatalogueItem,
  listCatalogueItems,
  updateCatalogueItem,
  type ItemKind,
} from './items.js';

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

export const findProfile = (db: Db, organizationId: number, id: number) =>
  findItem<ProfileRow>(db, 'test_profiles', organizationId, id);
export const listProfiles = (db: Db, organizationId: number, q: CatalogueListQuery) =>
  listCatalogueItems(PROFILE, db, organizationId, q);
export const getProfile = (db: Db, organizationId: number, id: number) =>
  getCatalogueItem(PROFILE, db, organizationId, id);
/** Inside an open transaction (the starter catalogue loads many at once). */
export const insertProfile = (trx: Db, actor: Actor, input: ProfileCreate) =>
  insertCatalogueItem(PROFILE, trx, actor, input);
export const createProfile = (db: Db, actor: Actor, input: ProfileCreate) =>
  createCatalogueItem(PROFILE, db, actor, input);
export const updateProfile = (db: Db, actor: Actor, id: number, input: ProfileUpdate) =>
  updateCatalogueItem(PROFILE, db, actor, id, input);
export const deleteProfile = (db: Db, actor: Actor, id: number) => deleteCatalogueItem(PROFILE, db, actor, id);
