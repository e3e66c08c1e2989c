import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  connectionCreateSchema,
  connectionSchema,
  connectionUpdateSchema,
  interfaceMessageDetailSchema,
  interfaceMessagePageSchema,
  messageListQuery,
  unmatchedAssignSchema,
  unmatchedDiscardSchema,
  unmatchedListQuery,
  unmatchedPageSchema,
  unmatchedSchema,
} from '../schemas/connections.js';
import { testResultSchema } from '../schemas/results.js';
import { captureReplayBody, captureReplaySchema } from '../schemas/capture-replay.js';
import { defineRoute } from './contract.js';

const oneConnection = z.object({ connection: connectionSchema });

/**
 * Analyzer interfaces, inbound: the machines' connections and their message log
 * (manage_lab), and the Unmatched queue, which technicians clear (update_results).
 */
export const connectionsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/connections',
    access: 'manage_lab',
    response: z.object({ connections: z.array(connectionSchema) }),
  }),
  /** The message log, newest first: every message in or out, with its status and the ACK sent. */
  messages: defineRoute({
    method: 'GET',
    path: '/api/connections/messages',
    access: 'manage_lab',
    query: messageListQuery,
    response: interfaceMessagePageSchema,
  }),
  message: defineRoute({
    method: 'GET',
    path: '/api/connections/messages/:id',
    access: 'manage_lab',
    params: idParam,
    response: z.object({ message: interfaceMessageDetailSchema }),
  }),
  unmatched: defineRoute({
    method: 'GET',
    path: '/api/connections/unmatched',
    access: 'update_results',
    query: unmatchedListQuery,
    response: unmatchedPageSchema,
  }),
  /** Enters the value as the result of an ordered test of a sample, as the machine (never verified). */
  assign: defineRoute({
    method: 'POST',
    path: '/api/connections/unmatched/:id/assign',
    access: 'update_results',
    params: idParam,
    body: unmatchedAssignSchema,
    response: z.object({ unmatched: unmatchedSchema, result: testResultSchema }),
  }),
  discard: defineRoute({
    method: 'POST',
    path: '/api/connections/unmatched/:id/discard',
    access: 'update_results',
    params: idParam,
    body: unmatchedDiscardSchema,
    response: z.object({ unmatched: unmatchedSchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/connections/:id',
    access: 'manage_lab',
    params: idParam,
    response: oneConnection,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/connections',
    access: 'manage_lab',
    body: connectionCreateSchema,
    response: oneConnection,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/connections/:id',
    access: 'manage_lab',
    params: idParam,
    body: connectionUpdateSchema,
    response: oneConnection,
  }),
  /** Deletes a connection that has no messages; one with a message log is disabled instead (409). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/connections/:id',
    access: 'manage_lab',
    params: idParam,
    response: oneConnection,
  }),
  enable: defineRoute({
    method: 'POST',
    path: '/api/connections/:id/enable',
    access: 'manage_lab',
    params: idParam,
    response: oneConnection,
  }),
  /** What a capture would become on this connection (sample, test, value, or the queue): nothing is stored. */
  replay: defineRoute({
    method: 'POST',
    path: '/api/connections/:id/replay',
    access: 'manage_lab',
    params: idParam,
    body: captureReplayBody,
    response: z.object({ replay: captureReplaySchema }),
  }),
  disable: defineRoute({
    method: 'POST',
    path: '/api/connections/:id/disable',
    access: 'manage_lab',
    params: idParam,
    response: oneConnection,
  }),
};
