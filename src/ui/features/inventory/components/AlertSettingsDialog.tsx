import type { z } from 'zod';
import type { DefaultValues } from 'react-hook-form';
import { alertSettingsSchema, type AlertSettings } from '@shared/schemas/inventory';
import { FormDialog, FormField, Input } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { useAlertSettings, useAlertSettingsMutation } from '../api';

type FormIn = z.input<typeof alertSettingsSchema>;
const FIELDS = ['expiry_warning_days', 'approaching_margin_percent'] as const;

const defaults = (s: AlertSettings | undefined): DefaultValues<FormIn> => ({
  expiry_warning_days: s ? String(s.expiry_warning_days) : '',
  approaching_margin_percent: s ? String(s.approaching_margin_percent) : '',
});

/** Alert Settings: the lab's expiry warning days and approaching-minimum margin. */
export function AlertSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const settings = useAlertSettings();
  const save = useAlertSettingsMutation();
  // Each opening, and each fresh read of the settings, starts from what the server holds.
  const form = useDialogForm(alertSettingsSchema, open, settings.data, defaults);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((body) => save.mutate(body, dialogSave(form, onOpenChange, fieldNamed(FIELDS))));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Alert Settings"
      description="Applied to every item at once: alerts are raised or resolved to match."
      busy={save.isPending}
      form={{ id: 'alert-settings-form', columns: 1, onSubmit }}
      submitLabel="Save Settings"
      error={formError(form)}
    >
      {settings.data ? (
        <>
          <FormField
            label="Expiry warning (days)"
            required
            error={errors.expiry_warning_days?.message}
            hint="Stock expiring within this many days raises an expiry warning (1-365)."
          >
            <Input type="number" inputMode="numeric" min={1} max={365} {...form.register('expiry_warning_days')} />
          </FormField>
          <FormField
            label="Approaching-minimum margin (%)"
            required
            error={errors.approaching_margin_percent?.message}
            hint="Stock up to this much above the minimum raises an approaching-minimum alert (0-100)."
          >
            <Input
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              {...form.register('approaching_margin_percent')}
            />
          </FormField>
        </>
      ) : (
        <p className="text-[14px] text-slate-600">Loading the settings...</p>
      )}
    </FormDialog>
  );
}
