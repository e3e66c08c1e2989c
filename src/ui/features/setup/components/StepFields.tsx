import { useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Database, Eye, EyeOff } from 'lucide-react';
import { CURRENCIES, DATE_FORMATS, TIMEZONES } from '@shared/constants';
import { Badge, FormField, Input, Select, Switch, Textarea } from '@/components';
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
      <FormField label="Password" required error={errors.adminPassword?.message} hint="At least 8 characters.">
        {(control) => (
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
        )}
      </FormField>
      <FormField label="Confirm Password" required error={errors.confirmPassword?.message}>
        <Input type={show ? 'text' : 'password'} autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
    </div>
  );
}

const DB_OPTIONS = [
  { id: 'sqlite', label: 'SQLite (embedded)', available: true },
  { id: 'postgresql', label: 'PostgreSQL', available: false },
  { id: 'mysql', label: 'MySQL', available: false },
];

export function DatabaseStep({ file }: { file: string | undefined }) {
  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-[13px] font-medium text-slate-800">Database Type</legend>
        {DB_OPTIONS.map((o) => (
          <label
            key={o.id}
            className={`flex items-center gap-3 rounded-md border px-3 py-2.5 ${o.available ? 'border-primary-200 bg-primary-50' : 'border-slate-200 bg-slate-50 text-slate-500'}`}
          >
            <input
              type="radio"
              name="databaseType"
              value={o.id}
              checked={o.available}
              disabled={!o.available}
              readOnly
              className="size-4 accent-primary-600"
            />
            <span className="flex-1 text-sm font-medium">{o.label}</span>
            {o.available ? (
              <Badge tone="green">In use</Badge>
            ) : (
              <span className="text-xs">planned, not available in this version</span>
            )}
          </label>
        ))}
      </fieldset>
      <div className="flex items-start gap-3 rounded-md border border-slate-200 bg-white p-3">
        <Database className="mt-0.5 size-5 shrink-0 text-primary-700" aria-hidden="true" />
        <div className="min-w-0 text-[13px]">
          <p className="font-medium text-slate-900">Database file</p>
          <p className="mt-0.5 font-mono break-all text-slate-800" data-testid="database-file">
            {file ?? '—'}
          </p>
          <p className="mt-1 text-slate-600">
            Nothing to configure: the database is one file in the data directory. Back it up with{' '}
            <code>lims backup</code>.
          </p>
        </div>
      </div>
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

export function RegionalStep({ form, file }: Form & { file: string | undefined }) {
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
          rows={[
            ['Type', 'SQLite (embedded)'],
            ['File', file],
          ]}
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
