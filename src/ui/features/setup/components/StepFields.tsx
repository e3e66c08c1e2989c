import { useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Database, Eye, EyeOff, PlugZap } from 'lucide-react';
import { CURRENCIES, DATE_FORMATS, TIMEZONES } from '@shared/constants';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_RULE_TEXT } from '@shared/password-policy';
import { Badge, Button, FormField, Input, PasswordRules, RadioCard, Select, Switch, Textarea } from '@/components';
import type { WizardValues } from '../steps';

type Form = { form: UseFormReturn<WizardValues> };

export function LabStep({ form }: Form) {
  const { errors } = form.formState;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField label="Lab Name" required error={errors.labName?.message} className="sm:col-span-2">
        <Input autoComplete="organization" placeholder="e.g. Sunrise Diagnostics" {...form.register('labName')} />
      </FormField>
      <FormField label="Lab Address" error={errors.labAddress?.message} className="sm:col-span-2">
        <Textarea autoComplete="street-address" rows={2} {...form.register('labAddress')} />
      </FormField>
      <FormField label="Lab Phone" error={errors.labPhone?.message}>
        <Input type="tel" autoComplete="tel" placeholder="+91 80 1234 5678" {...form.register('labPhone')} />
      </FormField>
      <FormField label="Lab Email" error={errors.labEmail?.message}>
        <Input type="email" autoComplete="email" placeholder="lab@example.in" {...form.register('labEmail')} />
      </FormField>
    </div>
  );
}

export function AdminStep({ form }: Form) {
  const { errors } = form.formState;
  const [show, setShow] = useState(false);
  const password = useWatch({ control: form.control, name: 'adminPassword' });
  const rule = PASSWORD_RULE_TEXT[DEFAULT_PASSWORD_POLICY];
  const toggle = (
    <button
      type="button"
      onClick={() => setShow((s) => !s)}
      aria-label={show ? 'Hide passwords' : 'Show passwords'}
      aria-pressed={show}
      className="absolute top-1/2 right-1 flex size-7 -translate-y-1/2 items-center justify-center rounded text-slate-600 hover:bg-slate-100"
    >
      {show ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
    </button>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField label="Administrator Name" required error={errors.adminName?.message}>
        <Input autoComplete="name" placeholder="e.g. Asha Rao" {...form.register('adminName')} />
      </FormField>
      <FormField label="Administrator Email" required error={errors.adminEmail?.message} hint="Used to sign in.">
        <Input type="email" autoComplete="username" {...form.register('adminEmail')} />
      </FormField>
      <FormField
        label="Password"
        required
        error={errors.adminPassword?.message}
        hint={`${rule.charAt(0).toUpperCase()}${rule.slice(1)}.`}
      >
        {(control) => (
          <div>
            <div className="relative">
              <Input
                type={show ? 'text' : 'password'}
                autoComplete="new-password"
                className="pr-10"
                {...control}
                {...form.register('adminPassword')}
              />
              {toggle}
            </div>
            <PasswordRules policy={DEFAULT_PASSWORD_POLICY} password={password ?? ''} />
          </div>
        )}
      </FormField>
      <FormField label="Confirm Password" required error={errors.confirmPassword?.message}>
        <Input type={show ? 'text' : 'password'} autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
    </div>
  );
}

/** The database the server was started on, as GET /api/setup/status names it. */
export type ServerDatabase = { type: 'SQLite'; file: string } | { type: 'PostgreSQL'; server: string } | undefined;

export interface ConnectionCheck {
  ok: boolean;
  message: string;
}

const SSL_OPTIONS = [
  { value: 'prefer', label: 'Use TLS if the server offers it' },
  { value: 'require', label: 'Require TLS' },
  { value: 'verify-full', label: 'Require TLS and verify the certificate' },
  { value: 'disable', label: 'No TLS (same machine or trusted network only)' },
];

/**
 * Database: the data dir's SQLite file, or a PostgreSQL database for a chain or a
 * managed server. PostgreSQL needs a successful Test Connection (Next runs it too); a server
 * started with --database-url shows its PostgreSQL database and offers no other.
 */
export function DatabaseStep({
  form,
  server,
  check,
  checking,
  onTest,
}: Form & {
  server: ServerDatabase;
  check: ConnectionCheck | null;
  checking: boolean;
  onTest: () => void;
}) {
  const { errors } = form.formState;
  const v = useWatch({ control: form.control });
  if (server?.type === 'PostgreSQL') {
    return (
      <div className="flex items-start gap-3 rounded-md border border-primary-200 bg-primary-50 p-3">
        <Database className="mt-0.5 size-5 shrink-0 text-primary-700" aria-hidden="true" />
        <div className="min-w-0 text-[13px]">
          <p className="font-medium text-slate-900">
            PostgreSQL <Badge tone="green">In use</Badge>
          </p>
          <p className="mt-0.5 font-mono break-all text-slate-800" data-testid="database-file">
            {server.server}
          </p>
          <p className="mt-1 text-slate-600">
            This server was started with <code>--database-url</code>: the lab is set up in that database.
          </p>
        </div>
      </div>
    );
  }
  const postgres = v.databaseType === 'postgresql';
  const choice = (id: 'sqlite' | 'postgresql', label: string, note: string) => (
    <RadioCard
      value={id}
      selected={v.databaseType === id}
      label={label}
      note={note}
      {...form.register('databaseType')}
    />
  );
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-[13px] font-medium text-slate-800">Database Type</legend>
        {choice('sqlite', 'SQLite (embedded)', 'One file in the data directory: right for one clinic on one PC.')}
        {choice(
          'postgresql',
          'PostgreSQL',
          'A database server: for a chain with several lims servers, or a database your IT team runs and backs up.',
        )}
      </fieldset>
      {!postgres ? (
        <div className="flex items-start gap-3 rounded-md border border-slate-200 bg-white p-3">
          <Database className="mt-0.5 size-5 shrink-0 text-primary-700" aria-hidden="true" />
          <div className="min-w-0 text-[13px]">
            <p className="font-medium text-slate-900">Database file</p>
            <p className="mt-0.5 font-mono break-all text-slate-800" data-testid="database-file">
              {server?.file ?? '—'}
            </p>
            <p className="mt-1 text-slate-600">
              Nothing to configure: the database is one file in the data directory. Back it up with{' '}
              <code>lims backup</code>.
            </p>
          </div>
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-6">
          <FormField label="Host" required error={errors.dbHost?.message} className="sm:col-span-4">
            <Input placeholder="db.clinic.lan or 192.168.1.10" autoComplete="off" {...form.register('dbHost')} />
          </FormField>
          <FormField label="Port" required error={errors.dbPort?.message} className="sm:col-span-2">
            <Input inputMode="numeric" autoComplete="off" {...form.register('dbPort')} />
          </FormField>
          <FormField label="Database Name" required error={errors.dbName?.message} className="sm:col-span-3">
            <Input autoComplete="off" {...form.register('dbName')} />
          </FormField>
          <FormField label="User" required error={errors.dbUser?.message} className="sm:col-span-3">
            <Input autoComplete="off" {...form.register('dbUser')} />
          </FormField>
          <FormField
            label="Password"
            error={errors.dbPassword?.message}
            hint="Stored in the data directory's config.json, readable by the server's user only."
            className="sm:col-span-3"
          >
            <Input type="password" autoComplete="off" {...form.register('dbPassword')} />
          </FormField>
          <FormField label="TLS" className="sm:col-span-3">
            <Select options={SSL_OPTIONS} {...form.register('dbSslmode')} />
          </FormField>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-6">
            <Button type="button" variant="outline" onClick={onTest} loading={checking} loadingText="Testing...">
              <PlugZap />
              Test Connection
            </Button>
            {check && (
              <p
                role="status"
                data-testid="database-check"
                className={`min-w-0 flex-1 rounded-md border px-3 py-2 text-[13px] ${check.ok ? 'border-green-200 bg-green-50 text-green-900' : 'border-red-200 bg-red-50 text-red-900'}`}
              >
                {check.message}
              </p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

const SAMPLE_SWITCHES = [
  { key: 'importSampleTests', label: 'Import sample tests' },
  { key: 'importSampleProfiles', label: 'Import sample test profiles' },
  { key: 'importSamplePackages', label: 'Import sample test packages' },
] as const;

/**
 * The starter catalogue shipped with lims (data/starter-catalogue.json): common Indian lab tests,
 * profiles and packages with illustrative prices. Profiles need their tests and packages need
 * their tests and profiles: the server loads what they need along with them.
 */
export function SampleDataStep({ form }: Form) {
  const v = useWatch({ control: form.control });
  return (
    <div className="grid gap-4">
      <div className="grid gap-3">
        {SAMPLE_SWITCHES.map((s) => (
          <Switch
            key={s.key}
            id={s.key}
            checked={v[s.key] ?? false}
            onCheckedChange={(on) => form.setValue(s.key, on, { shouldDirty: true })}
            label={s.label}
          />
        ))}
      </div>
      <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-[13px] text-slate-700">
        The starter catalogue has about 100 common tests (haematology, biochemistry, lipid, liver, kidney, thyroid,
        diabetes, urine, serology, vitamins) with adult reference ranges, 15 profiles and 7 packages. Prices are
        illustrative: review them on Test Pricing after setup.
      </p>
    </div>
  );
}

const TZ_OPTIONS = TIMEZONES.map((t) => ({ value: t, label: t }));
const CURRENCY_OPTIONS = CURRENCIES.map((c) => ({ value: c, label: c }));
const DATE_OPTIONS = DATE_FORMATS.map((d) => ({ value: d, label: d }));

function Summary({ title, rows }: { title: string; rows: [string, string | undefined][] }) {
  return (
    <section className="rounded-md border border-slate-200">
      <h3 className="border-b border-slate-100 bg-slate-50 px-3 py-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {title}
      </h3>
      <dl className="grid gap-1 px-3 py-2 text-[13px]">
        {rows.map(([k, v]) => (
          <div key={k} className="grid grid-cols-[7.5rem_1fr] gap-2">
            <dt className="text-slate-600">{k}</dt>
            <dd className="min-w-0 break-words text-slate-900">{v || '—'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function RegionalStep({ form, server }: Form & { server: ServerDatabase }) {
  const { errors } = form.formState;
  const v = useWatch({ control: form.control });
  return (
    <div className="grid gap-5">
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Timezone" required error={errors.timezone?.message}>
          <Select options={TZ_OPTIONS} {...form.register('timezone')} />
        </FormField>
        <FormField label="Currency" required error={errors.currency?.message}>
          <Select options={CURRENCY_OPTIONS} {...form.register('currency')} />
        </FormField>
        <FormField label="Date Format" required error={errors.dateFormat?.message}>
          <Select options={DATE_OPTIONS} {...form.register('dateFormat')} />
        </FormField>
      </div>
      <div className="grid gap-3 md:grid-cols-2" aria-label="Review">
        <Summary
          title="Lab"
          rows={[
            ['Name', v.labName],
            ['Address', v.labAddress],
            ['Phone', v.labPhone],
            ['Email', v.labEmail],
          ]}
        />
        <Summary
          title="Administrator"
          rows={[
            ['Name', v.adminName],
            ['Email', v.adminEmail],
            ['Password', v.adminPassword ? `set (${v.adminPassword.length} characters)` : undefined],
          ]}
        />
        <Summary
          title="Database"
          rows={
            server?.type === 'PostgreSQL'
              ? [
                  ['Type', 'PostgreSQL'],
                  ['Server', server.server],
                ]
              : v.databaseType === 'postgresql'
                ? [
                    ['Type', 'PostgreSQL'],
                    ['Server', `${v.dbUser ?? ''}@${v.dbHost ?? ''}:${v.dbPort ?? ''}/${v.dbName ?? ''}`],
                  ]
                : [
                    ['Type', 'SQLite (embedded)'],
                    ['File', server?.file],
                  ]
          }
        />
        <Summary
          title="Sample Data & Region"
          rows={[
            [
              'Starter catalogue',
              [
                v.importSampleTests && 'tests',
                v.importSampleProfiles && 'profiles',
                v.importSamplePackages && 'packages',
              ]
                .filter(Boolean)
                .join(', ') || 'Not imported',
            ],
            ['Timezone', v.timezone],
            ['Currency', v.currency],
            ['Date format', v.dateFormat],
          ]}
        />
      </div>
    </div>
  );
}
