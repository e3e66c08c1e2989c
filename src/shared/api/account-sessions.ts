import { z } from 'zod';
import { ownSessionSchema, sessionIdParam } from '../schemas/sessions.js';
import { defineRoute } from './contract.js';

/**
 * One's own sessions (account menu, My sessions): every signed-in user sees and ends only their own.
 * A session id that is not one of the caller's answers 404, whoever it belongs to.
 */
export const accountSessionsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/account/sessions',
    access: 'authenticated',
    response: z.object({ sessions: z.array(ownSessionSchema) }),
  }),
  /** Ends one of one's sessions: that device is signed out at its next request. Ending the current one signs out. */
  end: defineRoute({
    method: 'DELETE',
    path: '/api/account/sessions/:id',
    access: 'authenticated',
    params: sessionIdParam,
    response: z.object({ ok: z.literal(true), current: z.boolean() }),
  }),
  /** Ends every session of the caller but this one; answers how many ended. */
  endOthers: defineRoute({
    method: 'POST',
    path: '/api/account/sessions/end-others',
    access: 'authenticated',
    response: z.object({ ended: z.number().int() }),
  }),
};
