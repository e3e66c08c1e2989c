import { z } from 'zod';
import { demoCredentialSchema, loginSchema, signInLabSchema } from '../schemas/auth.js';
import { userSchema } from '../schemas/users.js';
import { twoFactorChallengeSchema } from '../schemas/two-factor.js';
import { okResponse } from '../schemas/common.js';
import { defineRoute } from './contract.js';

const signedIn = z.object({ user: userSchema });
const labName = z.object({ name: z.string() });

export const authApi = {
  /**
   * `{user}` and the session cookie; or, when the user has two-factor sign-in on (or the lab
   * requires it), `{two_factor: {challenge, step, expires_at}}` and no cookie: the session starts at
   * POST /api/auth/login/two-factor (src/shared/api/two-factor.ts).
   */
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    body: loginSchema,
    response: z.object({ user: userSchema.optional(), two_factor: twoFactorChallengeSchema.optional() }),
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    access: 'authenticated',
    response: okResponse,
  }),
  me: defineRoute({ method: 'GET', path: '/api/auth/me', access: 'authenticated', response: signedIn }),
  /** The name of the signed-in user's lab, for the sidebar. */
  myLab: defineRoute({ method: 'GET', path: '/api/auth/my-lab', access: 'authenticated', response: labName }),
  /**
   * The sign-in page's lab, before anyone signs in: the lab whose domain this host name is, else the
   * server's first lab; null before setup. `ask_lab`: the host names no lab and the server holds more
   * than one, so the page asks which (the `lab` field of login; empty means the first lab). Nothing
   * else about the lab or other labs.
   */
  signInLab: defineRoute({
    method: 'GET',
    path: '/api/auth/lab',
    access: 'public',
    response: signInLabSchema,
  }),
  /** The demo accounts, listed on the login page only when the server runs with --demo. */
  demoCredentials: defineRoute({
    method: 'GET',
    path: '/api/auth/demo-credentials',
    access: 'public',
    response: z.object({ demo: z.boolean(), credentials: z.array(demoCredentialSchema) }),
  }),
};
