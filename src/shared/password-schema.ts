import { z } from 'zod';
import type { PasswordPolicy } from './constants.js';
import { passwordProblems } from './password-policy.js';

// Apart from password-policy.ts, which the UI's first screen loads: zod stays out of that bundle.

/**
 * A password field checked against one policy: every broken rule is an issue of its own, so a
 * prompt or a form names them all at once. The server still checks the lab's policy when it saves.
 */
export function passwordSchemaFor(policy: PasswordPolicy, who: { email?: string; name?: string } = {}) {
  // Not users' passwordSchema: its "at least 8" would come first and contradict a stronger rule.
  return z
    .string({ error: 'Password is required' })
    .max(200, 'Password must be at most 200 characters')
    .superRefine((p, ctx) => {
      for (const message of passwordProblems(policy, p, who)) ctx.addIssue({ code: 'custom', message });
    });
}
