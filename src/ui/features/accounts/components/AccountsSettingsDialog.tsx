import type { z } from 'zod';
import {
  LEDGER_KEYS,
  LEDGER_LABELS,
  SALES_VOUCHER_MODES,
  accountsSettingsUpdateSchema,
  type AccountsSettings,
} from '@shared/schemas/accounts';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useUpdateAccountsSettingsMutation } from '../api';

type FormIn = z.input<typeof accountsSettingsUpdateSchema>;

const FIELDS = [
  'tally_company',
  'sales_voucher_mode',
  'annual_turnover',
  'einvoice_threshold',
  ...LEDGER_KEYS.map((k) => `ledgers.${k}` as const),
] as const;

const MODE_LABELS: Record<(typeof SALES_VOUCHER_MODES)[number], string> = {
  bill: 'One Sales voucher per bill',
  day: 'One Sales voucher per lab day',
};

function defaults(s: AccountsSettings): FormIn {
  return {
    tally_company: s.tally_company ?? '',
    sales_voucher_mode: s.sales_voucher_mode,
    ledgers: { ...s.ledgers },
    annual_turnover: s.annual_turnover === null ? '' : String(s.annual_turnover),
    einvoice_threshold: String(s.einvoice_threshold),
  };
}

/** Accounts settings: PUT /api/accounts/settings; what the Tally, GSTR-1 and e-invoice files are written with. */
export function AccountsSettingsDialog({
  open,
  onOpenChange,
  settings,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  settings: AccountsSettings;
}) {
  const save = useUpdateAccountsSettingsMutation();
  const form = useDialogForm(accountsSettingsUpdateSchema, open, settings, defaults);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: () => onOpenChange(false),
      onError: (e) => applyServerErrors(e, form.setError, fieldNamed(FIELDS)),
    }),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Accounts settings"
      description="Ledger names as they are in the lab’s Tally company, and whether its B2B invoices need an IRN."
      busy={save.isPending}
      form={{ id: 'accounts-settings-form', onSubmit }}
      submitLabel="Save Settings"
      busyLabel="Saving..."
      error={formError(form)}
    >
      <FormField label="Tally company" error={errors.tally_company?.message} hint="Empty: the company open in Tally">
        <Input autoComplete="off" {...form.register('tally_company')} />
      </FormField>
      <FormField label="Sales vouchers" error={errors.sales_voucher_mode?.message}>
        <Select
          options={SALES_VOUCHER_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
          {...form.register('sales_voucher_mode')}
        />
      </FormField>
      <FormField
        label="Annual turnover (₹)"
        error={errors.annual_turnover?.message}
        hint="Last financial year's aggregate; empty: not given (no IRN file)"
      >
        <Input inputMode="decimal" {...form.register('annual_turnover')} />
      </FormField>
      <FormField
        label="E-invoicing threshold (₹)"
        error={errors.einvoice_threshold?.message}
        hint="B2B invoices need an IRN above this turnover"
      >
        <Input inputMode="decimal" {...form.register('einvoice_threshold')} />
      </FormField>
      <p className="text-[13px] font-medium text-slate-900 sm:col-span-2">Tally ledgers</p>
      {LEDGER_KEYS.map((k) => (
        <FormField key={k} label={LEDGER_LABELS[k]} required error={errors.ledgers?.[k]?.message}>
          <Input autoComplete="off" {...form.register(`ledgers.${k}`)} />
        </FormField>
      ))}
    </FormDialog>
  );
}
