import type { PasswordPolicy } from '../shared/constants.js';
import { PASSWORD_RULE_TEXT } from '../shared/password-policy.js';
import { passwordSchemaFor } from '../shared/password-schema.js';
import type { Output } from './output.js';

/**
 * Asks for a new password twice and asks again until both entries match. The prompt states the
 * policy's rule and checks it when Enter is pressed, naming every rule broken, so a password the
 * prompt takes is one the save will take.
 */
export async function askNewPassword(
  out: Output,
  message: string,
  policy: PasswordPolicy,
  who: { email?: string; name?: string } = {},
): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  const schema = passwordSchemaFor(policy, who);
  const validate = (value: string): true | string => {
    const r = schema.safeParse(value);
    return r.success ? true : r.error.issues.map((i) => i.message).join('; ');
  };
  for (;;) {
    const first = await password({ message: `${message} (${PASSWORD_RULE_TEXT[policy]})`, mask: '*', validate });
    const second = await password({ message: 'Confirm the password', mask: '*' });
    if (first === second) return first;
    out.line('The passwords do not match; enter them again.');
  }
}

/** Inquirer throws this when the person presses Ctrl+C at a prompt. */
export function isPromptCancelled(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}
