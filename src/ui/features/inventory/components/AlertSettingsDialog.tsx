import { useState } from 'react';
import type { AlertSettings } from '@shared/schemas/inventory';
import { Button, Dialog, FormField, Input } from '@/components';
import { useAlertSettings, useAlertSettingsMutation } from '../api';
import { fieldErrors } from '@/lib/forms';

/** Alert Settings: the lab's expiry warning days and approaching-minimum margin. */
export function AlertSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const settings = useAlertSettings();
  const save = useAlertSettingsMutation();
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !save.isPending && onOpenChange(o)}
      title="Alert Settings"
      description="Applied to every item at once: alerts are raised or resolved to match."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="alert-settings-form" loading={save.isPending} loadingText="Saving...">
            Save Settings
          </Button>
        </>
      }
    >
      {settings.data && open ? (
        <SettingsForm
          key={settings.dataUpdatedAt}
          initial={settings.data}
          save={save}
          onDone={() => onOpenChange(false)}
        />
      ) : (
        <p className="text-[14px] text-slate-600">Loading the settings...</p>
      )}
    </Dialog>
  );
}

function SettingsForm({
  initial,
  save,
  onDone,
}: {
  initial: AlertSettings;
  save: ReturnType<typeof useAlertSettingsMutation>;
  onDone: () => void;
}) {
  const [days, setDays] = useState(String(initial.expiry_warning_days));
  const [margin, setMargin] = useState(String(initial.approaching_margin_percent));
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <form
      id="alert-settings-form"
      noValidate
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          { expiry_warning_days: days as never, approaching_margin_percent: margin as never },
          {
            onSuccess: onDone,
            onError: (err) => {
              setErrors(fieldErrors(err));
            },
          },
        );
      }}
    >
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
          value={days}
          onChange={(e) => setDays(e.target.value)}
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
          value={margin}
          onChange={(e) => setMargin(e.target.value)}
        />
      </FormField>
    </form>
  );
}
