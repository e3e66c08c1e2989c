import { profileCreateSchema, profileUpdateSchema, type ProfileCreate } from '../../../shared/schemas/catalogue.js';
import { changeProfile, insertProfile, listProfiles } from '../../catalogue/service.js';
import { itemsByCodes } from '../../catalogue/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { pagesOf } from './common.js';
import { codeList, planLinks, writeCatalogue, type CatalogueExisting, type CataloguePlan } from './catalogue.js';
import { itemColumns, itemFilters, itemKey, itemListOptions, itemRecord } from './catalogue.js';

/** Test profiles, keyed by code; their tests by test code (test_codes), in order. */

const columns: TransferColumn[] = [...itemColumns, { name: 'status' }, { name: 'test_codes', kind: 'list' }];

type Input = ProfileCreate & { test_codes?: string[] };

export const profiles: TransferEntity<Input, CatalogueExisting, CataloguePlan<ProfileCreate>> = {
  name: 'profiles',
  label: 'test profile',
  auditEntity: 'test_profile',
  columns,
  ...itemKey,
  createSchema: profileCreateSchema.extend({ test_codes: codeList('test_codes').default([]) }),
  updateSchema: profileUpdateSchema.extend({ test_codes: codeList('test_codes').optional() }),

  findExisting: (ctx, keys) => itemsByCodes(ctx.db, 'test_profiles', ctx.organizationId, keys),
  plan: (ctx, rows) => planLinks(ctx, rows, [{ codes: 'test_codes', ids: 'test_ids', table: 'tests', what: 'test' }]),
  write: (ctx, plans) => writeCatalogue(ctx, plans, insertProfile, changeProfile),

  filters: itemFilters,
  async *exportPages(db, organizationId, q) {
    const list = await listProfiles(db, organizationId, itemListOptions(q));
    const records = list.map((p) => ({
      ...itemRecord(p),
      status: p.status,
      test_codes: p.test_details.map((t) => t.code),
    }));
    yield* pagesOf(records);
  },
};
