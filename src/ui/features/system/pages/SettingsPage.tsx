import { useMemo, useState, type ReactNode } from 'react';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Bell,
  Database,
  HardDriveDownload,
  Lock,
  RotateCcw,
  Save,
  Server,
  Settings as SettingsIcon,
} from 'lucide-react';
import {
  Button,
  ConfirmDialog,
  DateText,
  ErrorPanel,
  FormField,
  Input,
  LoadingState,
  PageHeader,
  RequirePermission,
  Select,
  Switch,
  Textarea,
} from '@/components';
import { ApiError } from '@/lib/api';
import { labKeys } from '@/lib/lab';
import { notify } from '@/lib/notify';
import { useScreen } from '@/lib/screens';
import {
  BACKUP_FREQUENCIES,
  BACKUP_RETENTIONS,
  CURRENCIES,
  DATE_FORMATS,
  LOGIN_ATTEMPTS_MAX,
  LOGIN_ATTEMPTS_MIN,
  PASSWORD_POLICIES,
  SESSION_TIMEOUTS,
  TIMEZONES,
} from '@shared/constants';
import { PASSWORD_POLICY_LABELS } from '@shared/password-policy';
import {
  backUpNow,
  checks,
  formatBytes,
  resetSettings,
  saveSettings,
  settingsKeys,
  systemKeys,
  useBackups,
  useDiagnostics,
  useSettings,
  type AuditChainReport,
  type Settings,
} from '../api';
import { Section } from '../components/MessagingParts';
import { BackgroundJobsPanel } from '../components/BackgroundJobsPanel';
import { ChannelSwitches } from '../components/ChannelSwitches';
import { EmailSection } from '../components/EmailSection';
import { SmsSection } from '../components/SmsSection';

type Errors = Partial<Record<keyof Settings, string>>;

const LOGIN_ATTEMPTS = Array.from(
  { length: LOGIN_ATTEMPTS_MAX - LOGIN_ATTEMPTS_MIN + 1 },
  (_, i) => LOGIN_ATTEMPTS_MIN + i,
);

const options = (values: readonly (string | number)[], label: (v: string) => string = (v) => v) =>
  values.map((v) => ({ value: String(v), label: label(String(v)) }));

/** Every IANA zone this browser knows, the spec's four first. */
function zoneOptions(current: string) {
  const all = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  const rest = all.filter((z) => !(TIMEZONES as readonly string[]).includes(z));
  const list = [...TIMEZONES, ...rest];
  if (!list.includes(current)) list.unshift(current);
  return list.map((z) => ({ value: z, label: z }));
}

/** A switch that cannot change, with the reason beside it. */
function Locked({ label, checked, reason }: { label: string; checked: boolean; reason: string }) {
  return (
    <div className="space-y-1">
      <Switch checked={checked} onCheckedChange={() => undefined} disabled label={label} />
      <p className="text-xs text-slate-600">{reason}</p>
    </div>
  );
}

export default function SettingsPage() {
  const { title, subtitle } = useScreen();
  return (
    <RequirePermission permission="system_settings" what="System Settings" title={title} subtitle={subtitle}>
      <SettingsForm />
    </RequirePermission>
  );
}

function SettingsForm() {
  const saved = useSettings();
  if (saved.isPending) return <LoadingState />;
  if (saved.isError)
    return <ErrorPanel title="Cannot load the settings" error={saved.error} onRetry={() => void saved.refetch()} />;
  return <SettingsEditor saved={saved.data} />;
}

function SettingsEditor({ saved }: { saved: Settings }) {
  const { title, subtitle } = useScreen();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Settings>(saved);
  const [errors, setErrors] = useState<Errors>({});
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
      if (err instanceof ApiError && err.status === 400) {
        const next: Errors = {};
        for (const d of err.details) next[d.path as keyof Settings] ??= d.message;
        setErrors(next);
        notify.error('Settings not saved', `${err.details.length} setting(s) need attention`);
      } else notify.error('Settings not saved', err);
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
      <PageHeader
        title={title}
        subtitle={subtitle}
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
        <FormField
          label="Session Timeout"
          error={errors.sessionTimeout}
          hint="An idle session ends on the server after this long."
        >
          <Select {...choice('sessionTimeout', true)} options={options(SESSION_TIMEOUTS, (v) => `${v} minutes`)} />
        </FormField>
        <FormField
          label="Login Attempts"
          error={errors.maxLoginAttempts}
          hint="Wrong passwords for one account from one computer before it is locked there for 15 minutes."
        >
          <Select {...choice('maxLoginAttempts', true)} options={options(LOGIN_ATTEMPTS, (v) => `${v} attempts`)} />
        </FormField>
        <FormField
          label="Password Policy"
          error={errors.passwordPolicy}
          hint="Checked whenever a password is set or reset."
        >
          <Select
            {...choice('passwordPolicy')}
            options={options(
              PASSWORD_POLICIES,
              (v) => PASSWORD_POLICY_LABELS[v as keyof typeof PASSWORD_POLICY_LABELS],
            )}
          />
        </FormField>
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

interface SectionProps {
  flag: (key: keyof Settings, label: string) => ReactNode;
}

function DatabaseSection({
  draft,
  errors,
  flag,
  choice,
}: SectionProps & {
  draft: Settings;
  errors: Errors;
  choice: <K extends keyof Settings>(
    key: K,
    asNumber?: boolean,
  ) => { value: string; onChange: (e: { target: { value: string } }) => void };
}) {
  const qc = useQueryClient();
  const diagnostics = useDiagnostics(true);
  const backups = useBackups();
  const [chain, setChain] = useState<AuditChainReport | null>(null);
  const backup = useMutation({
    mutationFn: backUpNow,
    onSuccess: (b) => {
      void qc.invalidateQueries({ queryKey: settingsKeys.backups });
      notify.success('Backup written', `${b.file ?? ''} (${formatBytes(b.bytes ?? 0)})`);
    },
    onError: (err) => {
      void qc.invalidateQueries({ queryKey: settingsKeys.backups });
      notify.error('Backup failed', err);
    },
  });
  const check = useMutation({
    mutationFn: async () => {
      await qc.invalidateQueries({ queryKey: systemKeys.diagnostics });
      return (await checks.auditChain()).data;
    },
    onSuccess: setChain,
    onError: (err) => notify.error('Integrity check failed', err),
  });
  const db = diagnostics.data?.database;
  const last = backups.data?.backups.find((b) => b.status === 'completed');
  return (
    <Section icon={<Database />} title="Database" description="Where the lab’s data lives, and its backups.">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:col-span-2">
        <dt className="text-slate-600">Engine</dt>
        <dd data-testid="db-engine">{db ? db.type : '…'}</dd>
        <dt className="text-slate-600">Size</dt>
        <dd>{db ? formatBytes(db.size_bytes) : '…'}</dd>
        <dt className="text-slate-600">Last backup</dt>
        <dd data-testid="last-backup">
          {last ? (
            <>
              <DateText value={last.finished_at ?? last.started_at} withTime /> · {formatBytes(last.bytes ?? 0)} ·{' '}
              <span className="break-all text-slate-600">{last.file}</span>
            </>
          ) : backups.isPending ? (
            '…'
          ) : (
            'None yet'
          )}
        </dd>
        <dt className="text-slate-600">Integrity</dt>
        <dd data-testid="integrity">
          {db ? `Database check: ${db.quick_check}` : '…'}
          {chain &&
            ` · Audit chain: ${chain.ok ? `intact (${chain.checked} rows)` : `BROKEN at row ${chain.firstBrokenId ?? '?'}`}`}
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button variant="outline" onClick={() => backup.mutate()} disabled={backup.isPending}>
          <HardDriveDownload aria-hidden="true" />
          {backup.isPending ? 'Backing up…' : 'Back Up Now'}
        </Button>
        <Button variant="outline" onClick={() => check.mutate()} disabled={check.isPending}>
          {check.isPending ? 'Checking…' : 'Check Integrity'}
        </Button>
      </div>
      <div className="space-y-1">
        {flag('autoBackup', 'Automatic backup')}
        <p className="text-xs text-slate-600">
          While lims serve runs, into {backups.data?.directory ?? 'the data directory'}. Keep copies off this machine
          too.
        </p>
      </div>
      <div />
      <FormField label="Backup Frequency" error={errors.backupFrequency}>
        <Select
          {...choice('backupFrequency')}
          options={options(BACKUP_FREQUENCIES, (v) => v.charAt(0).toUpperCase() + v.slice(1))}
        />
      </FormField>
      <FormField
        label="Backup Retention"
        error={errors.backupRetention}
        hint="Scheduled backups older than this are removed."
      >
        <Select {...choice('backupRetention', true)} options={options(BACKUP_RETENTIONS, (v) => `${v} days`)} />
      </FormField>
      {backups.data && backups.data.backups.some((b) => b.status === 'failed') && (
        <p className="text-sm text-red-700 sm:col-span-2">
          Last failure: {backups.data.backups.find((b) => b.status === 'failed')?.error}
        </p>
      )}
      {draft.autoBackup === false && (
        <p className="text-sm text-amber-800 sm:col-span-2">
          Automatic backups are off: take them by hand or with cron.
        </p>
      )}
    </Section>
  );
}

/** Maintenance and debug are the lab's; the server's version is shown to its operator only. */
function SystemSection({ flag, operator }: SectionProps & { operator: boolean }) {
  const diagnostics = useDiagnostics(operator);
  const version = diagnostics.data?.server.version ?? '…';
  return (
    <Section icon={<Server />} title="System" description="Maintenance, diagnostics and updates.">
      <div className="space-y-1">
        {flag('maintenanceMode', 'Maintenance mode')}
        <p className="text-xs text-slate-600">
          Staff can look things up but not save changes; administrators can. Every screen shows a banner.
        </p>
      </div>
      <div className="space-y-1">
        {flag('debugMode', 'Debug mode')}
        <p className="text-xs text-slate-600">
          Adds a line per request to the server log (never search text or patient data).
        </p>
      </div>
      <Locked
        label="Automatic updates"
        checked={false}
        reason="This server does not reach the internet, so it cannot update itself."
      />
      {operator && (
        <div className="text-sm">
          <p>
            Installed version: <strong data-testid="version">{version}</strong>
          </p>
          <p className="text-slate-600">
            To update: on the server, run <code>npm install -g lims@latest</code>, then restart lims serve (take a
            backup first).
          </p>
        </div>
      )}
    </Section>
  );
}
