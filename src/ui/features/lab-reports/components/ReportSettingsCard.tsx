import { useState, type FormEvent } from 'react';
import {
  reportSettingsUpdateSchema,
  type ReportSettings,
  type ReportSettingsUpdate,
} from '@shared/schemas/lab-reports';
import { Button, Card, CardBody, CardHeader, ErrorPanel, FormField, Input, LoadingState, Select } from '@/components';
import { useReportSettings, useSaveReportSettingsMutation } from '../api';
import { fieldErrors } from '@/lib/forms';

/** The accreditation printed in every report's header, the address its QR code opens, and the paper it is printed on. */
export function ReportSettingsCard({ canManage }: { canManage: boolean }) {
  const q = useReportSettings();
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Report Settings"
        description="Printed in the header of every report; the QR code opens the verification page at this address"
      />
      <CardBody>
        {q.isPending ? (
          <LoadingState text="Loading report settings..." />
        ) : q.isError ? (
          <ErrorPanel title="Error Loading Report Settings" query={q} />
        ) : (
          <SettingsForm initial={q.data} canManage={canManage} />
        )}
      </CardBody>
    </Card>
  );
}

function SettingsForm({ initial, canManage }: { initial: ReportSettings; canManage: boolean }) {
  const save = useSaveReportSettingsMutation();
  const [form, setForm] = useState<ReportSettingsUpdate>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof ReportSettingsUpdate) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  // An input's text and its onChange; a field left empty in the saved settings shows as ''.
  const text = (k: keyof ReportSettingsUpdate) => ({ value: form[k] ?? '', onChange: set(k) });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = reportSettingsUpdateSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onError: (err) => {
        setErrors(fieldErrors(err));
      },
    });
  }

  return (
    <form onSubmit={submit} className="grid gap-3" noValidate>
      <fieldset disabled={!canManage} className="grid gap-3 sm:grid-cols-2">
        <FormField label="Accreditation body" error={errors.accreditation_body}>
          <Input {...text('accreditation_body')} placeholder="NABL" />
        </FormField>
        <FormField label="Accreditation number" error={errors.accreditation_number}>
          <Input {...text('accreditation_number')} placeholder="MC-1234" />
        </FormField>
        <FormField
          label="Public address for verification"
          error={errors.public_url}
          hint="Where patients and doctors reach this server, e.g. https://reports.mylab.in. Empty: the address staff use."
          className="sm:col-span-2"
        >
          <Input {...text('public_url')} placeholder="https://" />
        </FormField>
        <FormField
          label="Report paper"
          error={errors.stationery}
          hint="Pre-printed: the lab's letterhead is already on the paper, so the report leaves the top of each page blank."
        >
          <Select
            value={form.stationery ?? 'letterhead'}
            onChange={set('stationery')}
            options={[
              { value: 'letterhead', label: 'Plain paper (print the letterhead)' },
              { value: 'preprinted', label: 'Pre-printed letterhead paper' },
            ]}
          />
        </FormField>
        {form.stationery === 'preprinted' && (
          <FormField
            label="Height of the pre-printed letterhead (mm)"
            error={errors.preprinted_header_mm}
            hint="The blank space left at the top of each page, 0-120 mm."
          >
            <Input
              inputMode="numeric"
              value={String(form.preprinted_header_mm ?? '')}
              onChange={set('preprinted_header_mm')}
            />
          </FormField>
        )}
      </fieldset>
      {canManage ? (
        <div>
          <Button type="submit" loading={save.isPending} loadingText="Saving...">
            Save Settings
          </Button>
        </div>
      ) : (
        <p className="text-[12px] text-slate-600">Changed by the lab manager (manage_lab).</p>
      )}
    </form>
  );
}
