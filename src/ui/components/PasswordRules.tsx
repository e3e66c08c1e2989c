import { Check, Circle } from 'lucide-react';
import type { PasswordPolicy } from '@shared/constants';
import { PASSWORD_POLICY_RULES } from '@shared/password-policy';

export interface PasswordRulesProps {
  policy: PasswordPolicy;
  password: string;
  who?: { email?: string; name?: string };
}

/**
 * The policy's rules under a new-password field, each ticked as it is met while the person types:
 * the same rules (src/shared/password-policy.ts) the server applies when it saves.
 */
export function PasswordRules({ policy, password, who = {} }: PasswordRulesProps) {
  return (
    <ul aria-label="Password rules" className="mt-1 grid gap-0.5 text-[13px]">
      {PASSWORD_POLICY_RULES[policy].map((rule) => {
        const met = password !== '' && rule.test(password, who);
        return (
          <li key={rule.label} className={`flex items-center gap-1.5 ${met ? 'text-green-700' : 'text-slate-600'}`}>
            {met ? <Check aria-hidden className="size-3.5" /> : <Circle aria-hidden className="size-3" />}
            <span>
              {rule.label}
              <span className="sr-only">{met ? ' (met)' : ' (not yet)'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
