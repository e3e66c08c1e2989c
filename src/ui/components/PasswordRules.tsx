import { Check, Circle } from 'lucide-react';
import type { PasswordPolicy } from '@shared/constants';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_POLICY_RULES, PASSWORD_RULE_TEXT } from '@shared/password-policy';
import { useLab } from '@/lib/lab';

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
    // Spans with list roles: the list also sits in a field's hint, which is a paragraph.
    <span role="list" aria-label="Password rules" className="mt-1 grid gap-0.5 text-[13px]">
      {PASSWORD_POLICY_RULES[policy].map((rule) => {
        const met = password !== '' && rule.test(password, who);
        return (
          <span
            role="listitem"
            key={rule.label}
            className={`flex items-center gap-1.5 ${met ? 'text-green-700' : 'text-slate-600'}`}
          >
            {met ? <Check aria-hidden className="size-3.5" /> : <Circle aria-hidden className="size-3" />}
            <span>
              {rule.label}
              <span className="sr-only">{met ? ' (met)' : ' (not yet)'}</span>
            </span>
          </span>
        );
      })}
    </span>
  );
}

/**
 * The hint under a new password for an account of this lab: the lab's policy in one sentence and
 * its rules ticked as they are typed (the server applies the same policy when it saves).
 */
export function LabPasswordHint({ password, who }: { password: string; who?: PasswordRulesProps['who'] }) {
  const policy = useLab().data?.passwordPolicy ?? DEFAULT_PASSWORD_POLICY;
  const rule = PASSWORD_RULE_TEXT[policy];
  return (
    <>
      {`${rule.charAt(0).toUpperCase()}${rule.slice(1)} (the lab's password policy).`}
      <PasswordRules policy={policy} password={password} who={who} />
    </>
  );
}
