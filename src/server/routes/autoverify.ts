import type { FastifyInstance } from 'fastify';
import { autoverifyApi } from '../../shared/api/autoverify.js';
import {
  activateRuleSet,
  approveRuleSet,
  autoverifyState,
  createRuleSet,
  decisionsOf,
  getRuleSet,
  latestDecisionsOf,
  listRuleSetsOf,
  newVersion,
  resumeAutoverification,
  stopAutoverification,
  updateRuleSetDraft,
} from '../../core/autoverify/service.js';
import { shadowComparison } from '../../core/autoverify/shadow.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function autoverifyRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, autoverifyApi.state, async (req) => ({ state: await autoverifyState(db, org(req)) }));
  route(app, autoverifyApi.list, async (req) => ({ rule_sets: await listRuleSetsOf(db, org(req)) }));
  route(app, autoverifyApi.get, async (req) => ({ rule_set: await getRuleSet(db, org(req), req.params.id) }));
  route(app, autoverifyApi.create, async (req) => ({ rule_set: await createRuleSet(db, actorOf(req), req.body) }));
  route(app, autoverifyApi.update, async (req) => ({
    rule_set: await updateRuleSetDraft(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, autoverifyApi.newVersion, async (req) => ({
    rule_set: await newVersion(db, actorOf(req), req.params.id),
  }));
  route(app, autoverifyApi.approve, async (req) => ({
    rule_set: await approveRuleSet(db, actorOf(req), req.params.id),
  }));
  route(app, autoverifyApi.activate, async (req) => ({
    rule_set: await activateRuleSet(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, autoverifyApi.stop, async (req) => ({ state: await stopAutoverification(db, actorOf(req), req.body) }));
  route(app, autoverifyApi.resume, async (req) => ({
    state: await resumeAutoverification(db, actorOf(req), req.body),
  }));
  route(app, autoverifyApi.decisions, async (req) => ({
    decisions: await decisionsOf(db, org(req), req.params.id),
  }));
  route(app, autoverifyApi.latest, async (req) => ({
    decisions: await latestDecisionsOf(db, org(req), req.query.result_ids),
  }));
  route(app, autoverifyApi.comparison, async (req) => ({
    comparison: await shadowComparison(db, org(req), req.query),
  }));
}
