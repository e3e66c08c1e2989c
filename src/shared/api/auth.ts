import { z } from 'zod';
import { demoCredentialSchema, loginSchema } from '../schemas/auth.js';
import { userSchema } from '../schemas/users.js';
import { defineRoute } from './contract.js';

const signedIn = z.object({ user: userSchema });

export const authApi = {
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    body: loginSchema,
    response: signedIn,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    access: 'authenticated',
    response: z.object({ ok: z.literal(true) }),
  }),
  me: defineRoute({ method: 'GET', path: '/api/auth/me', access: 'authenticated', response: signedIn }),
  /** The demo accounts, listed on the login page only when the server runs with --demo. */
  demoCredentials: defineRoute({
    method: 'GET',
    path: '/api/auth/demo-credentials',
    access: 'public',
    response: z.object({ demo: z.boolean(), credentials: z.array(demoCredentialSchema) }),
  }),
};
