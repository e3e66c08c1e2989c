import { passwordSchema } from '../shared/schemas/users.js';
import { validatorFor } from './flags.js';
import type { Output } from './output.js';

/** Asks for a new password twice and asks again until both entries match. */
export async function askNewPassword(out: Output, message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  const validate = validatorFor(passwordSchema);
  for (;;) {
    const first = await password({ message: `${message} (at least 8 characters)`, mask: '*', validate });
    const second = await password({ message: 'Confirm the password', mask: '*' });
    if (first === second) return first;
    out.line('The passwords do not match; enter them again.');
  }
}

/** Inquirer throws this when the person presses Ctrl+C at a prompt. */
export function isPromptCancelled(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}
