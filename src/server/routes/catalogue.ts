import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../shared/schemas/common.js';
import {
  catalogueListQuery,
  packageCreateSchema,
  packageUpdateSchema,
  priceUpdateSchema,
  profileCreateSchema,
  profileUpdateSchema,
  testCreateSchema,
  testUpdateSchema,
} from '../../shared/schemas/catalogue.js';
import { createTest, deleteTest, getTest, listTests, updateTest } from '../../core/catalogue/tests.js';
import {
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  updateProfile,
} from '../../core/catalogue/profiles.js';
import {
  createPackage,
  deletePackage,
  getPackage,
  listPackages,
  updatePackage,
} from '../../core/catalogue/packages.js';
import { priceHistory } from '../../core/catalogue/pricing.js';
import { actorOf } from '../plugins/auth.js';

const itemParams = z.object({
  type: z.enum(['test', 'profile', 'package'], { error: 'type must be test, profile or package' }),
  id: idParam.shape.id,
});

export async function catalogueRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const view = { access: 'view_tests' } as const;
  const manage = { access: 'manage_tests' } as const;

  r.get('/api/tests', { schema: { querystring: catalogueListQuery }, config: view }, async (req) => ({
    tests: await listTests(db, actorOf(req).organizationId, req.query),
  }));
  r.get('/api/tests/:id', { schema: { params: idParam }, config: view }, async (req) => ({
    test: await getTest(db, actorOf(req).organizationId, req.params.id),
  }));
  r.post('/api/tests', { schema: { body: testCreateSchema }, config: manage }, async (req, reply) => {
    reply.status(201);
    return { test: await createTest(db, actorOf(req), req.body) };
  });
  r.put('/api/tests/:id', { schema: { params: idParam, body: testUpdateSchema }, config: manage }, async (req) => ({
    test: await updateTest(db, actorOf(req), req.params.id, req.body),
  }));
  r.delete('/api/tests/:id', { schema: { params: idParam }, config: manage }, async (req) => ({
    test: await deleteTest(db, actorOf(req), req.params.id),
  }));

  r.get('/api/test-profiles', { schema: { querystring: catalogueListQuery }, config: view }, async (req) => ({
    profiles: await listProfiles(db, actorOf(req).organizationId, req.query),
  }));
  r.get('/api/test-profiles/:id', { schema: { params: idParam }, config: view }, async (req) => ({
    profile: await getProfile(db, actorOf(req).organizationId, req.params.id),
  }));
  r.post('/api/test-profiles', { schema: { body: profileCreateSchema }, config: manage }, async (req, reply) => {
    reply.status(201);
    return { profile: await createProfile(db, actorOf(req), req.body) };
  });
  r.put(
    '/api/test-profiles/:id',
    { schema: { params: idParam, body: profileUpdateSchema }, config: manage },
    async (req) => ({
      profile: await updateProfile(db, actorOf(req), req.params.id, req.body),
    }),
  );
  r.delete('/api/test-profiles/:id', { schema: { params: idParam }, config: manage }, async (req) => ({
    profile: await deleteProfile(db, actorOf(req), req.params.id),
  }));

  r.get('/api/test-packages', { schema: { querystring: catalogueListQuery }, config: view }, async (req) => ({
    packages: await listPackages(db, actorOf(req).organizationId, req.query),
  }));
  r.get('/api/test-packages/:id', { schema: { params: idParam }, config: view }, async (req) => ({
    package: await getPackage(db, actorOf(req).organizationId, req.params.id),
  }));
  r.post('/api/test-packages', { schema: { body: packageCreateSchema }, config: manage }, async (req, reply) => {
    reply.status(201);
    return { package: await createPackage(db, actorOf(req), req.body) };
  });
  r.put(
    '/api/test-packages/:id',
    { schema: { params: idParam, body: packageUpdateSchema }, config: manage },
    async (req) => ({
      package: await updatePackage(db, actorOf(req), req.params.id, req.body),
    }),
  );
  r.delete('/api/test-packages/:id', { schema: { params: idParam }, config: manage }, async (req) => ({
    package: await deletePackage(db, actorOf(req), req.params.id),
  }));

  /** Test Pricing: set an item's price (and base price); every change is kept as history. */
  r.put(
    '/api/pricing/:type/:id',
    { schema: { params: itemParams, body: priceUpdateSchema }, config: manage },
    async (req) => {
      const actor = actorOf(req);
      const { type, id } = req.params;
      const body = req.body;
      if (type === 'test') return { item: await updateTest(db, actor, id, body) };
      if (type === 'profile') return { item: await updateProfile(db, actor, id, body) };
      return { item: await updatePackage(db, actor, id, body) };
    },
  );
  r.get('/api/pricing/:type/:id/history', { schema: { params: itemParams }, config: view }, async (req) => {
    const orgId = actorOf(req).organizationId;
    const { type, id } = req.params;
    if (type === 'test') await getTest(db, orgId, id);
    else if (type === 'profile') await getProfile(db, orgId, id);
    else await getPackage(db, orgId, id);
    return { history: await priceHistory(db, orgId, type, id) };
  });
}
