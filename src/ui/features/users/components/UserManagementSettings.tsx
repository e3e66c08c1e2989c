import { useState } from 'react';
import { Link } from 'react-router';
import { Save, SlidersHorizontal } from 'lucide-react';
import {
  LOGIN_ATTEMPTS_MAX,
  LOGIN_ATTEMPTS_MIN,
  PASSWORD_POLICIES,
  SESSION_TIMEOUTS,
  type PasswordPolicy,
} from '@shared/constants';
import { PASSWORD_POLICY_LABELS } from '@shared/password-policy';
import { settingsUpdateSchema, type Settings, type SettingsUpdate } from '@shared/schemas/settings';
import { Button, Card, CardBody, CardHeader, ErrorPanel, FormField, LoadingState, Select, Switch } from '@/components';
import { notify } from '@/lib/notify';
import { useLabSettings, useSaveUserSettingsMutation } from '../api';
import { serverErrors } from '@/lib/forms';

/** The four settings this panel edits; the rest of the lab's settings are System Settings'. */
type UserSettings = Pick<Settings, 'sessionTimeout' | 'maxLoginAttempts' | 'passwordPolicy' | 'twoFactorAuth'>;
type Errors = Partial<Record<keyof UserSettings, string>>;

const ATTEMPTS = Array.from({ length: LOGIN_ATTEMPTS_MAX - LOGIN_ATTEMPTS_MIN + 1 }, (_, i) => LOGIN_ATTEMPTS_MIN + i);

/** Whether this version's settings API takes two-factor sign-in being switched on. */
const twoFactorAvailable = settingsUpdateSchema.shape.twoFactorAuth.safeParse(true).success;

/**
 * User Management settings (spec: the Users screen's settings block): the same lab settings as
 * System Settings, through the same API (PUT /api/settings with only these fields).
 */
export function UserManagementSettings() {
  const settings = useLabSettings(true);
  return (
    <Card>
      <CardHeader
        title="User Management Settings"
        icon={<SlidersHorizontal />}
        description={
          <>
            Sign-in and password rules for every account of this lab. The same settings as{' '}
            <Link to="/settings" className="text-primary-700 hover:underline">
              System Settings
            </Link>
            .
          </>
        }
      />
      {settings.isPending ? (
        <LoadingState text="Loading settings..." className="py-8" />
      ) : settings.isError ? (
        <ErrorPanel title="Cannot load the settings" query={settings} className="m-4" />
      ) : (
        <Form saved={settings.data} />
      )}
    </Card>
  );
}

function pick(s: Settings): UserSettings {
  return {
    sessionTimeout: s.sessionTimeout,
    maxLoginAttempts: s.maxLoginAttempts,
    passwordPolicy: s.passwordPolicy,
    twoFactorAuth: s.twoFactorAuth,
  };
}

function Form({ saved }: { saved: Settings }) {
  const save = useSaveUserSettingsMutation();
  const [draft, setDraft] = useState<UserSettings>(() => pick(saved));
  const [errors, setErrors] = useState<Errors>({});
  const base = pick(saved);
  const dirty = (Object.keys(base) as (keyof UserSettings)[]).some((k) => base[k] !== draft[k]);

  const set = <K extends keyof UserSettings>(key: K, value: UserSettings[K]) => {
    setDraft({ ...draft, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const onSave = () =>
    save.mutate(draft as SettingsUpdate, {
      onSuccess: (s) => {
        setDraft(pick(s));
        setErrors({});
      },
      onError: (err) => {
        setErrors(serverErrors<keyof UserSettings>(err).fields);
        notify.error('Settings not saved', err);
      },
    });

  return (
    <CardBody className="grid gap-4 sm:grid-cols-2">
      <FormField
        label="Session Timeout"
        error={errors.sessionTimeout}
        hint="An idle session ends on the server after this long."
      >
        <Select
          value={String(draft.sessionTimeout)}
          onChange={(e) => set('sessionTimeout', Number(e.target.value))}
          options={SESSION_TIMEOUTS.map((m) => ({ value: String(m), label: `${m} minutes` }))}
        />
      </FormField>
      <FormField
        label="Login Attempts"
        error={errors.maxLoginAttempts}
        hint="Wrong passwords for one account from one computer before it is locked there for 15 minutes."
      >
        <Select
          value={String(draft.maxLoginAttempts)}
          onChange={(e) => set('maxLoginAttempts', Number(e.target.value))}
          options={ATTEMPTS.map((n) => ({ value: String(n), label: `${n} attempts` }))}
        />
      </FormField>
      <FormField
        label="Password Policy"
        error={errors.passwordPolicy}
        hint="Checked whenever a password is set or reset."
      >
        <Select
          value={draft.passwordPolicy}
          onChange={(e) => set('passwordPolicy', e.target.value as PasswordPolicy)}
          options={PASSWORD_POLICIES.map((p) => ({ value: p, label: PASSWORD_POLICY_LABELS[p] }))}
        />
      </FormField>
      <div className="space-y-1">
        {twoFactorAvailable ? (
          <Switch
            checked={draft.twoFactorAuth}
            onCheckedChange={(v) => set('twoFactorAuth', v as UserSettings['twoFactorAuth'])}
            label="Two-factor authentication"
          />
        ) : (
          <>
            <Switch checked={false} onCheckedChange={() => undefined} disabled label="Two-factor authentication" />
            <p className="text-xs text-slate-600">
              Sign-in with an authenticator app code is not available in this version yet.
            </p>
          </>
        )}
        {errors.twoFactorAuth && <p className="text-xs text-red-700">{errors.twoFactorAuth}</p>}
      </div>
      <div className="flex items-center justify-end gap-3 sm:col-span-2">
        {dirty && (
          <span role="status" className="text-sm text-amber-800">
            Unsaved changes
          </span>
        )}
        <Button onClick={onSave} disabled={!dirty} loading={save.isPending} loadingText="Saving...">
          <Save aria-hidden="true" />
          Save Settings
        </Button>
      </div>
    </CardBody>
  );
}
