import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  activationInputSchema,
  autoverifyStateSchema,
  comparisonQuerySchema,
  comparisonSchema,
  decisionSchema,
  latestDecisionsQuerySchema,
  resumeInputSchema,
  ruleSetCreateSchema,
  ruleSetSchema,
  ruleSetUpdateSchema,
  stopInputSchema,
} from '../schemas/autoverify.js';
import { defineRoute } from './contract.js';

const oneRuleSet = z.object({ rule_set: ruleSetSchema });
const state = z.object({ state: autoverifyStateSchema });

/**
 * Autoverification. Reading rule sets, the state, decisions and the shadow comparison needs
 * view_results; drafting and editing rule sets, and stopping autoverification, verify_results
 * (those who verify by hand); approving, activating and resuming, approve_autoverification.
 */
export const autoverifyApi = {
  state: defineRoute({
    method: 'GET',
    path: '/api/autoverification',
    access: 'view_results',
    response: state,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/autoverification/rule-sets',
    access: 'view_results',
    response: z.object({ rule_sets: z.array(ruleSetSchema) }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/autoverification/rule-sets/:id',
    access: 'view_results',
    params: idParam,
    response: oneRuleSet,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/autoverification/rule-sets',
    access: 'verify_results',
    body: ruleSetCreateSchema,
    response: oneRuleSet,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/autoverification/rule-sets/:id',
    access: 'verify_results',
    params: idParam,
    body: ruleSetUpdateSchema,
    response: oneRuleSet,
  }),
  newVersion: defineRoute({
    method: 'POST',
    path: '/api/autoverification/rule-sets/:id/versions',
    access: 'verify_results',
    params: idParam,
    response: oneRuleSet,
    status: 201,
  }),
  approve: defineRoute({
    method: 'POST',
    path: '/api/autoverification/rule-sets/:id/approve',
    access: 'approve_autoverification',
    params: idParam,
    response: oneRuleSet,
  }),
  activate: defineRoute({
    method: 'POST',
    path: '/api/autoverification/rule-sets/:id/activate',
    access: 'approve_autoverification',
    params: idParam,
    body: activationInputSchema,
    response: oneRuleSet,
  }),
  stop: defineRoute({
    method: 'POST',
    path: '/api/autoverification/stop',
    access: 'verify_results',
    body: stopInputSchema,
    response: state,
  }),
  resume: defineRoute({
    method: 'POST',
    path: '/api/autoverification/resume',
    access: 'approve_autoverification',
    body: resumeInputSchema,
    response: state,
  }),
  decisions: defineRoute({
    method: 'GET',
    path: '/api/test-results/:id/autoverification',
    access: 'view_results',
    params: idParam,
    response: z.object({ decisions: z.array(decisionSchema) }),
  }),
  /** The latest decision of each of some results (a queue's page); results never judged are left out. */
  latest: defineRoute({
    method: 'GET',
    path: '/api/autoverification/decisions',
    access: 'view_results',
    query: latestDecisionsQuerySchema,
    response: z.object({ decisions: z.array(decisionSchema) }),
  }),
  comparison: defineRoute({
    method: 'GET',
    path: '/api/autoverification/comparison',
    access: 'view_results',
    query: comparisonQuerySchema,
    response: z.object({ comparison: comparisonSchema }),
  }),
};
