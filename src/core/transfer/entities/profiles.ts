import { z } from 'zod';
import {
  CATALOGUE_STATUSES,
  profileCreateSchema,
  profileUpdateSchema,
  type ProfileCreate,
} from '../../../shared/schemas/catalogue.js';
import { changeProfile, insertProfile, listProfiles } from '../../catalogue/service.js';
import { itemsByCodes } from '../../catalogue/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { oneOf, upperKey } from './common.js';
import { codeList, planLinks, writeCatalogue, type CatalogueExisting, type CataloguePlan } from './catalogue.js';

/** Test profiles, keyed by code; their tests by test code (test_codes), in order. */

const columns: TransferColumn[] = [
  { name: 'code' },
  { name: 'name' },
  { name: 'category' },
  { name: 'description' },
  { name: 'price', kind: 'number' },
  { name: 'base_price', kind: 'number' },
  { name: 'status' },
  { name: 'test_codes', kind: 'list' },
];

type Input = ProfileCreate & { test_codes?: string[] };

export const profiles: TransferEntity<Input, CatalogueExisting, CataloguePlan<ProfileCreate>> = {
  name: 'profiles',
  label: 'test profile',
  auditEntity: 'test_profile',
  columns,
  key: 'code',
  normalizeKey: upperKey,
  requiredColumns: ['code', 'name', 'price'],
  createSchema: profileCreateSchema.extend({ test_codes: codeList('test_codes').default([]) }),
  updateSchema: profileUpdateSchema.extend({ test_codes: codeList('test_codes').optional() }),

  findExisting: (ctx, keys) => itemsByCodes(ctx.db, 'test_profiles', ctx.organizationId, keys),
  plan: (ctx, rows) => planLinks(ctx, rows, [{ codes: 'test_codes', ids: 'test_ids', table: 'tests', what: 'test' }]),
  write: (ctx, plans) => writeCatalogue(ctx, plans, insertProfile, changeProfile),

  filters: { status: oneOf(CATALOGUE_STATUSES), category: z.string().trim().min(1).max(60) },
  async *exportPages(db, organizationId, q) {
    const list = await listProfiles(db, organizationId, {
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
      status: p.status,
      test_codes: p.test_details.map((t) => t.code),
    }));
    for (let i = 0; i < records.length; i += 500) yield records.slice(i, i + 500);
  },
};
