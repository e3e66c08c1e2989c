import type { FastifyInstance } from 'fastify';
import { packagesApi, pricingApi, profilesApi, testsApi } from '../../shared/api/catalogue.js';
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
import { route } from '../contract.js';

export async function catalogueRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, testsApi.list, async (req) => ({ tests: await listTests(db, org(req), req.query) }));
  route(app, testsApi.get, async (req) => ({ test: await getTest(db, org(req), req.params.id) }));
  route(app, testsApi.create, async (req) => ({ test: await createTest(db, actorOf(req), req.body) }));
  route(app, testsApi.update, async (req) => ({ test: await updateTest(db, actorOf(req), req.params.id, req.body) }));
  route(app, testsApi.remove, async (req) => ({ test: await deleteTest(db, actorOf(req), req.params.id) }));

  route(app, profilesApi.list, async (req) => ({ profiles: await listProfiles(db, org(req), req.query) }));
  route(app, profilesApi.get, async (req) => ({ profile: await getProfile(db, org(req), req.params.id) }));
  route(app, profilesApi.create, async (req) => ({ profile: await createProfile(db, actorOf(req), req.body) }));
  route(app, profilesApi.update, async (req) => ({
    profile: await updateProfile(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, profilesApi.remove, async (req) => ({ profile: await deleteProfile(db, actorOf(req), req.params.id) }));

  route(app, packagesApi.list, async (req) => ({ packages: await listPackages(db, org(req), req.query) }));
  route(app, packagesApi.get, async (req) => ({ package: await getPackage(db, org(req), req.params.id) }));
  route(app, packagesApi.create, async (req) => ({ package: await createPackage(db, actorOf(req), req.body) }));
  route(app, packagesApi.update, async (req) => ({
    package: await updatePackage(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, packagesApi.remove, async (req) => ({ package: await deletePackage(db, actorOf(req), req.params.id) }));

  route(app, pricingApi.update, async (req) => {
    const actor = actorOf(req);
    const { type, id } = req.params;
    if (type === 'test') return { item: await updateTest(db, actor, id, req.body) };
    if (type === 'profile') return { item: await updateProfile(db, actor, id, req.body) };
    return { item: await updatePackage(db, actor, id, req.body) };
  });
  route(app, pricingApi.history, async (req) => {
    const orgId = org(req);
    const { type, id } = req.params;
    if (type === 'test') await getTest(db, orgId, id);
    else if (type === 'profile') await getProfile(db, orgId, id);
    else await getPackage(db, orgId, id);
    return { history: await priceHistory(db, orgId, type, id) };
  });
}

export default catalogueRoutes;
