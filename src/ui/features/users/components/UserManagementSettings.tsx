import { useState } from 'react';
import { Link } from 'react-router';
import { Save, SlidersHorizontal } from 'lucide-react';
import { settingsUpdateSchema, type Settings, type SettingsUpdate } from '@shared/schemas/settings';
import { Button, Card, CardBody, CardHeader, ErrorPanel, LoadingState, Switch } from '@/components';
import { SignInPolicyFields } from '@/components/SignInPolicyFields';
import { notify } from '@/lib/notify';
import { useLabSettings, useSaveUserSettingsMutation } from '../api';
import { serverErrors } from '@/lib/forms';

/** The four settings this panel edits; the rest of the lab's settings are System Settings'. */
type UserSettings = Pick<Settings, 'sessionTimeout' | 'maxLoginAttempts' | 'passwordPolicy' | 'twoFactorAuth'>;
type Errors = Partial<Record<keyof UserSettings, string>>;

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
      <SignInPolicyFields values={draft} errors={errors} onChange={set} />
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
