import type { Db } from '../db/connection.js';
import { ValidationError } from '../errors.js';
import { passwordProblems } from '../../shared/password-policy.js';
import { labSettings } from './organization.js';

/**
 * Refuses a password the lab's policy does not allow (System Settings: basic, strong, very-strong),
 * naming every rule it breaks, under the field that carries it. Called wherever a password is set
 * or reset, before it is hashed.
 */
export async function assertPasswordPolicy(
  db: Db,
  organizationId: number,
  password: string,
  who: { email?: string; name?: string },
  field = 'password',
): Promise<void> {
  const { passwordPolicy } = await labSettings(db, organizationId);
  const problems = passwordProblems(passwordPolicy, password, who);
  if (problems.length === 0) return;
  throw new ValidationError(
    `${field}: ${problems.join('; ')} (the lab's password policy is ${passwordPolicy})`,
    problems.map((message) => ({ path: field, message })),
  );
}
