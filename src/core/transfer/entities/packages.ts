import { z } from 'zod';
import {
  CATALOGUE_STATUSES,
  packageCreateSchema,
  packageUpdateSchema,
  type PackageCreate,
} from '../../../shared/schemas/catalogue.js';
import { changePackage, insertPackage, listPackages } from '../../catalogue/service.js';
import { itemsByCodes } from '../../catalogue/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { oneOf, upperKey } from './common.js';
import { codeList, planLinks, writeCatalogue, type CatalogueExisting, type CataloguePlan } from './catalogue.js';

/** Test packages, keyed by code; their tests and profiles by code (test_codes, profile_codes). */

const columns: TransferColumn[] = [
  { name: 'code' },
  { name: 'name' },
  { name: 'category' },
  { name: 'description' },
  { name: 'price', kind: 'number' },
  { name: 'base_price', kind: 'number' },
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
  key: 'code',
  normalizeKey: upperKey,
  requiredColumns: ['code', 'name', 'price'],
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

  filters: { status: oneOf(CATALOGUE_STATUSES), category: z.string().trim().min(1).max(60) },
  async *exportPages(db, organizationId, q) {
    const list = await listPackages(db, organizationId, {
      status: q.where.status as 'active' | 'inactive' | undefined,
      category: q.where.category as string | undefined,
    });
    const records = list.map((p) => ({
      code: p.code,
      name: p.name,
      category: p.category,
      description: p.description,
      price: p.price,
      base_price: p.base_price,
      duration: p.duration,
      status: p.status,
      test_codes: p.test_details.map((t) => t.code),
      profile_codes: p.profile_details.map((t) => t.code),
    }));
    for (let i = 0; i < records.length; i += 500) yield records.slice(i, i + 500);
  },
};
