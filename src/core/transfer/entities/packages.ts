import { packageCreateSchema, packageUpdateSchema, type PackageCreate } from '../../../shared/schemas/catalogue.js';
import { changePackage, insertPackage, listPackages } from '../../catalogue/service.js';
import { itemsByCodes } from '../../catalogue/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { pagesOf } from './common.js';
import { codeList, planLinks, writeCatalogue, type CatalogueExisting, type CataloguePlan } from './catalogue.js';
import { itemColumns, itemFilters, itemKey, itemListOptions, itemRecord } from './catalogue.js';

/** Test packages, keyed by code; their tests and profiles by code (test_codes, profile_codes). */

const columns: TransferColumn[] = [
  ...itemColumns,
  { name: 'duration' },
  { name: 'status' },
  { name: 'test_codes', kind: 'list' },
  { name: 'profile_codes', kind: 'list' },
];

type Input = PackageCreate & { test_codes?: string[]; profile_codes?: string[] };

export const packages: TransferEntity<Input, CatalogueExisting, CataloguePlan<PackageCreate>> = {
  name: 'packages',
  label: 'test package',
  auditEntity: 'test_package',
  columns,
  ...itemKey,
  createSchema: packageCreateSchema.extend({
    test_codes: codeList('test_codes').default([]),
    profile_codes: codeList('profile_codes').default([]),
  }),
  updateSchema: packageUpdateSchema.extend({
    test_codes: codeList('test_codes').optional(),
    profile_codes: codeList('profile_codes').optional(),
  }),

  findExisting: (ctx, keys) => itemsByCodes(ctx.db, 'test_packages', ctx.organizationId, keys),
  plan: (ctx, rows) =>
    planLinks(ctx, rows, [
      { codes: 'test_codes', ids: 'test_ids', table: 'tests', what: 'test' },
      { codes: 'profile_codes', ids: 'profile_ids', table: 'test_profiles', what: 'test profile' },
    ]),
  write: (ctx, plans) => writeCatalogue(ctx, plans, insertPackage, changePackage),

  filters: itemFilters,
  async *exportPages(db, organizationId, q) {
    const list = await listPackages(db, organizationId, itemListOptions(q));
    const records = list.map((p) => ({
      ...itemRecord(p),
      duration: p.duration,
      status: p.status,
      test_codes: p.test_details.map((t) => t.code),
      profile_codes: p.profile_details.map((t) => t.code),
    }));
    yield* pagesOf(records);
  },
};
