import {
  LOGIN_ATTEMPTS_MAX,
  LOGIN_ATTEMPTS_MIN,
  PASSWORD_POLICIES,
  SESSION_TIMEOUTS,
  type PasswordPolicy,
} from '@shared/constants';
import { PASSWORD_POLICY_LABELS } from '@shared/password-policy';
import type { Settings } from '@shared/schemas/settings';
import { FormField } from './FormField';
import { Select } from './Input';

/** The sign-in rules a lab sets: how long an idle session lasts, the wrong passwords allowed, the password policy. */
export type SignInPolicy = Pick<Settings, 'sessionTimeout' | 'maxLoginAttempts' | 'passwordPolicy'>;

const ATTEMPTS = Array.from({ length: LOGIN_ATTEMPTS_MAX - LOGIN_ATTEMPTS_MIN + 1 }, (_, i) => LOGIN_ATTEMPTS_MIN + i);

/**
 * The three sign-in rule fields, the same in System Settings' Security section and in the Users
 * screen's settings block (both save them with PUT /api/settings).
 */
export function SignInPolicyFields({
  values,
  errors,
  onChange,
}: {
  values: SignInPolicy;
  errors: Partial<Record<keyof SignInPolicy, string>>;
  onChange: (key: keyof SignInPolicy, value: SignInPolicy[keyof SignInPolicy]) => void;
}) {
  return (
    <>
      <FormField
        label="Session Timeout"
        error={errors.sessionTimeout}
        hint="An idle session ends on the server after this long."
      >
        <Select
          value={String(values.sessionTimeout)}
          onChange={(e) => onChange('sessionTimeout', Number(e.target.value))}
          options={SESSION_TIMEOUTS.map((m) => ({ value: String(m), label: `${m} minutes` }))}
        />
      </FormField>
      <FormField
        label="Login Attempts"
        error={errors.maxLoginAttempts}
        hint="Wrong passwords for one account from one computer before it is locked there for 15 minutes."
      >
        <Select
          value={String(values.maxLoginAttempts)}
          onChange={(e) => onChange('maxLoginAttempts', Number(e.target.value))}
          options={ATTEMPTS.map((n) => ({ value: String(n), label: `${n} attempts` }))}
        />
      </FormField>
      <FormField
        label="Password Policy"
        error={errors.passwordPolicy}
        hint="Checked whenever a password is set or reset."
      >
        <Select
          value={values.passwordPolicy}
          onChange={(e) => onChange('passwordPolicy', e.target.value as PasswordPolicy)}
          options={PASSWORD_POLICIES.map((p) => ({ value: p, label: PASSWORD_POLICY_LABELS[p] }))}
        />
      </FormField>
    </>
  );
}
