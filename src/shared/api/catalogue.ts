import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  CATALOGUE_ITEM_TYPES,
  catalogueListQuery,
  cataloguePackageSchema,
  catalogueProfileSchema,
  catalogueTestSchema,
  packageCreateSchema,
  packageUpdateSchema,
  priceChangeSchema,
  priceUpdateSchema,
  profileCreateSchema,
  profileUpdateSchema,
  testCreateSchema,
  testUpdateSchema,
} from '../schemas/catalogue.js';
import { defineRoute, type RouteContract } from './contract.js';

/** The five routes of one catalogue kind: list, get, create (201), update, delete. */
function crud<K extends string, S extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  path: string,
  one: K,
  many: string,
  item: S,
  create: C,
  update: U,
) {
  const single = z.object({ [one]: item } as Record<K, S>);
  return {
    list: defineRoute({
      method: 'GET',
      path,
      access: 'view_tests',
      query: catalogueListQuery,
      response: z.object({ [many]: z.array(item) }),
    }),
    get: defineRoute({ method: 'GET', path: `${path}/:id`, access: 'view_tests', params: idParam, response: single }),
    create: defineRoute({ method: 'POST', path, access: 'manage_tests', body: create, response: single, status: 201 }),
    update: defineRoute({
      method: 'PUT',
      path: `${path}/:id`,
      access: 'manage_tests',
      params: idParam,
      body: update,
      response: single,
    }),
    remove: defineRoute({
      method: 'DELETE',
      path: `${path}/:id`,
      access: 'manage_tests',
      params: idParam,
      response: single,
    }),
  } satisfies Record<string, RouteContract>;
}

export const testsApi = crud('/api/tests', 'test', 'tests', catalogueTestSchema, testCreateSchema, testUpdateSchema);
export const profilesApi = crud(
  '/api/test-profiles',
  'profile',
  'profiles',
  catalogueProfileSchema,
  profileCreateSchema,
  profileUpdateSchema,
);
export const packagesApi = crud(
  '/api/test-packages',
  'package',
  'packages',
  cataloguePackageSchema,
  packageCreateSchema,
  packageUpdateSchema,
);

export { CATALOGUE_ITEM_TYPES, type CatalogueItemType } from '../schemas/catalogue.js';

const itemParams = z.object({
  type: z.enum(CATALOGUE_ITEM_TYPES, { error: 'type must be test, profile or package' }),
  id: idParam.shape.id,
});

/** Test Pricing: set an item's price (and base price); every change is kept as history. */
export const pricingApi = {
  update: defineRoute({
    method: 'PUT',
    path: '/api/pricing/:type/:id',
    access: 'manage_tests',
    params: itemParams,
    body: priceUpdateSchema,
    // Most specific first: the serializer writes an item by the first schema it matches.
    response: z.object({ item: z.union([cataloguePackageSchema, catalogueProfileSchema, catalogueTestSchema]) }),
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/pricing/:type/:id/history',
    access: 'view_tests',
    params: itemParams,
    response: z.object({ history: z.array(priceChangeSchema) }),
  }),
};
