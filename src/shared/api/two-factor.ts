import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import { userSchema } from '../schemas/users.js';
import {
  loginTwoFactorSchema,
  loginTwoFactorSetupSchema,
  recoveryCodesSchema,
  twoFactorConfirmSchema,
  twoFactorEnableSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../schemas/two-factor.js';
import { defineRoute } from './contract.js';

const status = z.object({ two_factor: twoFactorStatusSchema });
const withCodes = z.object({ two_factor: twoFactorStatusSchema, recovery_codes: recoveryCodesSchema });

/** The second step of sign-in, after POST /api/auth/login answered `{two_factor: {challenge, step}}`. */
export const loginTwoFactorApi = {
  /**
   * The code (or a recovery code) for the challenge: the session starts (cookie). For an `enrol`
   * challenge the code confirms the new authenticator, and the answer carries the recovery codes, once.
   */
  verify: defineRoute({
    method: 'POST',
    path: '/api/auth/login/two-factor',
    access: 'public',
    body: loginTwoFactorSchema,
    response: z.object({ user: userSchema, recovery_codes: recoveryCodesSchema.optional() }),
  }),
  /** For an `enrol` challenge: the new secret, its otpauth URI and QR code. */
  setup: defineRoute({
    method: 'POST',
    path: '/api/auth/login/two-factor/setup',
    access: 'public',
    body: loginTwoFactorSetupSchema,
    response: z.object({ setup: twoFactorSetupSchema }),
  }),
};

/** One's own authenticator (Two-factor sign-in, from the user menu). */
export const accountTwoFactorApi = {
  status: defineRoute({ method: 'GET', path: '/api/account/two-factor', access: 'authenticated', response: status }),
  /** A new secret, not yet on: `enable` with a current code switches it on. */
  setup: defineRoute({
    method: 'POST',
    path: '/api/account/two-factor/setup',
    access: 'authenticated',
    response: z.object({ setup: twoFactorSetupSchema }),
  }),
  /** Confirms the set-up with a current code; answers the 10 recovery codes, once. */
  enable: defineRoute({
    method: 'POST',
    path: '/api/account/two-factor/enable',
    access: 'authenticated',
    body: twoFactorEnableSchema,
    response: withCodes,
  }),
  disable: defineRoute({
    method: 'POST',
    path: '/api/account/two-factor/disable',
    access: 'authenticated',
    body: twoFactorConfirmSchema,
    response: status,
  }),
  /** New recovery codes; the old ones stop working. */
  recoveryCodes: defineRoute({
    method: 'POST',
    path: '/api/account/two-factor/recovery-codes',
    access: 'authenticated',
    body: twoFactorConfirmSchema,
    response: withCodes,
  }),
};

/** An administrator's view of another user's two-factor, and the reset for a lost phone. */
export const userTwoFactorApi = {
  status: defineRoute({
    method: 'GET',
    path: '/api/users/:id/two-factor',
    access: 'view_users',
    params: idParam,
    response: status,
  }),
  reset: defineRoute({
    method: 'POST',
    path: '/api/users/:id/two-factor/reset',
    access: 'manage_users',
    params: idParam,
    response: status,
  }),
};
