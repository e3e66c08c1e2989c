import type { AlertSettings } from '@shared/schemas/inventory';
import { FormDialog, FormField, Input } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useAlertSettings, useAlertSettingsMutation } from '../api';

const formOf = (s: AlertSettings | undefined) => ({
  expiry_warning_days: s ? String(s.expiry_warning_days) : '',
  approaching_margin_percent: s ? String(s.approaching_margin_percent) : '',
});

/** Alert Settings: the lab's expiry warning days and approaching-minimum margin. */
export function AlertSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const settings = useAlertSettings();
  const save = useAlertSettingsMutation();
  const {
    values: v,
    set,
    errors,
    showErrors,
  } = useFieldForm(() => formOf(settings.data), {
    // Each opening, and each fresh read of the settings, starts from what the server holds.
    resetFor: open && settings.data ? settings.dataUpdatedAt : null,
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Alert Settings"
      description="Applied to every item at once: alerts are raised or resolved to match."
      busy={save.isPending}
      form={{
        id: 'alert-settings-form',
        columns: 1,
        onSubmit: (e) => {
          e.preventDefault();
          if (!settings.data) return;
          // The server's schema reads the decimal strings as numbers.
          save.mutate(v as never, { onSuccess: () => onOpenChange(false), onError: showErrors });
        },
      }}
      submitLabel="Save Settings"
      error={errors.form}
    >
      {settings.data ? (
        <>
          <FormField
            label="Expiry warning (days)"
            required
            error={errors.expiry_warning_days}
            hint="Stock expiring within this many days raises an expiry warning (1-365)."
          >
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={365}
              value={v.expiry_warning_days}
              onChange={(e) => set('expiry_warning_days', e.target.value)}
            />
          </FormField>
          <FormField
            label="Approaching-minimum margin (%)"
            required
            error={errors.approaching_margin_percent}
            hint="Stock up to this much above the minimum raises an approaching-minimum alert (0-100)."
          >
            <Input
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              value={v.approaching_margin_percent}
              onChange={(e) => set('approaching_margin_percent', e.target.value)}
            />
          </FormField>
        </>
      ) : (
        <p className="text-[14px] text-slate-600">Loading the settings...</p>
      )}
    </FormDialog>
  );
}
