import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Database, HardDriveDownload, Server } from 'lucide-react';
import { Button, DateText, FormField, Select, Switch } from '@/components';
import { notify } from '@/lib/notify';
import { BACKUP_FREQUENCIES, BACKUP_RETENTIONS } from '@shared/constants';
import {
  backUpNow,
  checks,
  formatBytes,
  settingsKeys,
  systemKeys,
  useBackups,
  useDiagnostics,
  type AuditChainReport,
  type Settings,
} from '../api';
import { Section } from './MessagingParts';

/** Messages under the settings they name. */
export type SettingsErrors = Partial<Record<keyof Settings, string>>;

/** Select options from a list of values. */
export const options = (values: readonly (string | number)[], label: (v: string) => string = (v) => v) =>
  values.map((v) => ({ value: String(v), label: label(String(v)) }));

/** A switch that cannot change, with the reason beside it. */
export function Locked({ label, checked, reason }: { label: string; checked: boolean; reason: string }) {
  return (
    <div className="space-y-1">
      <Switch checked={checked} onCheckedChange={() => undefined} disabled label={label} />
      <p className="text-xs text-slate-600">{reason}</p>
    </div>
  );
}

export interface SectionProps {
  flag: (key: keyof Settings, label: string) => ReactNode;
}

/** The operator's database, backups and audit chain check. */
export function DatabaseSection({
  draft,
  errors,
  flag,
  choice,
}: SectionProps & {
  draft: Settings;
  errors: SettingsErrors;
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
/** Maintenance mode, debug logging and the server's own switches. */
export function SystemSection({ flag, operator }: SectionProps & { operator: boolean }) {
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
