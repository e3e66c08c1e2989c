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
import { Select, type SelectOption } from './Input';

/** The sign-in rules a lab sets: how long an idle session lasts, the wrong passwords allowed, the password policy. */
export type SignInPolicy = Pick<Settings, 'sessionTimeout' | 'maxLoginAttempts' | 'passwordPolicy'>;

const ATTEMPTS = Array.from({ length: LOGIN_ATTEMPTS_MAX - LOGIN_ATTEMPTS_MIN + 1 }, (_, i) => LOGIN_ATTEMPTS_MIN + i);

const FIELDS: {
  key: keyof SignInPolicy;
  label: string;
  hint: string;
  options: SelectOption[];
  /** The chosen option's value as the setting. */
  read: (value: string) => SignInPolicy[keyof SignInPolicy];
}[] = [
  {
    key: 'sessionTimeout',
    label: 'Session Timeout',
    hint: 'An idle session ends on the server after this long.',
    options: SESSION_TIMEOUTS.map((m) => ({ value: String(m), label: `${m} minutes` })),
    read: Number,
  },
  {
    key: 'maxLoginAttempts',
    label: 'Login Attempts',
    hint: 'Wrong passwords for one account from one computer before it is locked there for 15 minutes.',
    options: ATTEMPTS.map((n) => ({ value: String(n), label: `${n} attempts` })),
    read: Number,
  },
  {
    key: 'passwordPolicy',
    label: 'Password Policy',
    hint: 'Checked whenever a password is set or reset.',
    options: PASSWORD_POLICIES.map((p) => ({ value: p, label: PASSWORD_POLICY_LABELS[p] })),
    read: (v) => v as PasswordPolicy,
  },
];

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
      {FIELDS.map((f) => (
        <FormField key={f.key} label={f.label} error={errors[f.key]} hint={f.hint}>
          <Select
            value={String(values[f.key])}
            onChange={(e) => onChange(f.key, f.read(e.target.value))}
            options={f.options}
          />
        </FormField>
      ))}
    </>
  );
}
