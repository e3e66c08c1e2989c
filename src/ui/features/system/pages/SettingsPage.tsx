import { useMemo, useState } from 'react';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Bell, Lock, RotateCcw, Save, Settings as SettingsIcon } from 'lucide-react';
import {
  Button,
  ConfirmDialog,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  ScreenHeader,
  screenPermissionPage,
  Select,
  Switch,
  Textarea,
} from '@/components';
import { serverErrors } from '@/lib/forms';
import { labKeys } from '@/lib/lab';
import { notify } from '@/lib/notify';
import { CURRENCIES, DATE_FORMATS, TIMEZONES } from '@shared/constants';
import { SignInPolicyFields } from '@/components/SignInPolicyFields';
import { resetSettings, saveSettings, settingsKeys, useSettings, type Settings } from '../api';
import { Section } from '../components/MessagingParts';
import { BackgroundJobsPanel } from '../components/BackgroundJobsPanel';
import { ChannelSwitches } from '../components/ChannelSwitches';
import { EmailSection } from '../components/EmailSection';
import { SmsSection } from '../components/SmsSection';
import { DatabaseSection, Locked, SystemSection, options, type SettingsErrors } from '../components/SettingsSections';

/** Every IANA zone this browser knows, the spec's four first. */
function zoneOptions(current: string) {
  const all = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const rest = all.filter((z) => !(TIMEZONES as readonly string[]).includes(z));
  const list = [...TIMEZONES, ...rest];
  if (!list.includes(current)) list.unshift(current);
  return list.map((z) => ({ value: z, label: z }));
}

export default screenPermissionPage('system_settings', 'System Settings', SettingsForm);

function SettingsForm() {
  const saved = useSettings();
  if (saved.isPending) return <LoadingState />;
  if (saved.isError) return <ErrorPanel title="Cannot load the settings" query={saved} />;
  return <SettingsEditor saved={saved.data} />;
}

function SettingsEditor({ saved }: { saved: Settings }) {
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Settings>(saved);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [confirmReset, setConfirmReset] = useState(false);
  // Backups and the database hold every lab on the server: its operator's section alone.
  const operator = can(useCurrentUser(), 'manage_tenants');
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(saved), [draft, saved]);

  const onSaved = (s: Settings, message: string) => {
    qc.setQueryData(settingsKeys.settings, s);
    void qc.invalidateQueries({ queryKey: labKeys.info });
    setDraft(s);
    setErrors({});
    notify.success(message);
  };
  const save = useMutation({
    mutationFn: () => saveSettings(draft),
    onSuccess: (s) => onSaved(s, 'Settings saved'),
    onError: (err) => {
      const { fields, form } = serverErrors<keyof Settings>(err);
      setErrors(fields);
      const named = Object.keys(fields).length;
      notify.error('Settings not saved', named ? `${named} setting(s) need attention` : form);
    },
  });
  const reset = useMutation({
    mutationFn: resetSettings,
    onSuccess: (s) => {
      setConfirmReset(false);
      onSaved(s, 'Settings reset to the defaults');
    },
    onError: (err) => notify.error('Settings not reset', err),
  });

  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => {
    setDraft({ ...draft, [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const text = (key: 'labName' | 'labAddress' | 'labPhone' | 'labEmail') => ({
    value: draft[key] ?? '',
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });
  const choice = <K extends keyof Settings>(key: K, asNumber = false) => ({
    value: String(draft[key]),
    onChange: (e: { target: { value: string } }) =>
      set(key, (asNumber ? Number(e.target.value) : e.target.value) as Settings[K]),
  });
  const flag = (key: keyof Settings, label: string) => (
    <Switch checked={draft[key] === true} onCheckedChange={(v) => set(key, v as never)} label={label} />
  );

  return (
    <div className="space-y-6">
      <ScreenHeader
        actions={
          <>
            <Button variant="outline" onClick={() => setConfirmReset(true)} disabled={reset.isPending}>
              <RotateCcw aria-hidden="true" />
              Reset
            </Button>
            <Button onClick={() => save.mutate()} disabled={!dirty || save.isPending}>
              <Save aria-hidden="true" />
              {save.isPending ? 'Saving…' : 'Save Settings'}
            </Button>
          </>
        }
      />
      {dirty && (
        <p role="status" className="text-sm text-amber-800">
          You have unsaved changes.
        </p>
      )}

      <Section
        icon={<SettingsIcon />}
        title="General"
        description="Printed on bills, lab reports and labels; dates, times and amounts everywhere follow the regional settings."
      >
        <FormField label="Lab Name" required error={errors.labName}>
          <Input {...text('labName')} />
        </FormField>
        <FormField label="Lab Phone" error={errors.labPhone}>
          <Input {...text('labPhone')} inputMode="tel" />
        </FormField>
        <FormField label="Lab Email" error={errors.labEmail}>
          <Input {...text('labEmail')} type="email" />
        </FormField>
        <FormField label="Lab Address" error={errors.labAddress} className="sm:col-span-2">
          <Textarea {...text('labAddress')} rows={2} />
        </FormField>
        <FormField label="Time Zone" error={errors.timezone}>
          <Select {...choice('timezone')} options={zoneOptions(draft.timezone)} />
        </FormField>
        <FormField label="Date Format" error={errors.dateFormat}>
          <Select {...choice('dateFormat')} options={options(DATE_FORMATS)} />
        </FormField>
        <FormField label="Currency" error={errors.currency}>
          <Select {...choice('currency')} options={options(CURRENCIES)} />
        </FormField>
      </Section>

      <Section icon={<Bell />} title="Notification" description="Which notifications lims creates and sends.">
        <div className="space-y-1">
          {flag('pushNotifications', 'In-app notifications (the bell)')}
          <p className="text-xs text-slate-600">Critical results, rejected samples, amended results, overdue bills.</p>
        </div>
        <ChannelSwitches values={draft} onChange={set} errors={errors} />
      </Section>

      <EmailSection />
      <SmsSection />

      <Section icon={<Lock />} title="Security" description="Sessions, passwords and the audit trail.">
        <SignInPolicyFields values={draft} errors={errors} onChange={set} />
        <div className="space-y-1">
          {flag('twoFactorAuth', 'Two-factor authentication')}
          {errors.twoFactorAuth ? (
            <p className="text-xs text-red-700">{errors.twoFactorAuth}</p>
          ) : (
            <p className="text-xs text-slate-600">
              Staff sign in with a code from an authenticator app as well as their password. Saving it on signs out at
              once everyone without one; they set it up at their next sign-in. Set up{' '}
              <Link to="/account/two-factor" className="text-primary-700 underline">
                your own
              </Link>{' '}
              first.
            </p>
          )}
        </div>
        <Locked
          label="Audit logging"
          checked
          reason="Always on: the audit trail is the lab’s record of who did what, and cannot be switched off."
        />
      </Section>

      {operator && <DatabaseSection draft={draft} errors={errors} flag={flag} choice={choice} />}

      <SystemSection flag={flag} operator={operator} />

      {operator && <BackgroundJobsPanel />}

      <ConfirmDialog
        open={confirmReset}
        onOpenChange={setConfirmReset}
        title="Reset settings"
        message="Put every option back to its default? The lab’s name, address, phone and email are kept."
        confirmLabel="Reset"
        busyLabel="Resetting…"
        busy={reset.isPending}
        onConfirm={() => reset.mutate()}
      />
    </div>
  );
}
