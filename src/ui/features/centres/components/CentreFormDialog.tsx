import type { z } from 'zod';
import { SHARE_BASES, SHARE_BASIS_LABELS, centreCreateSchema, type Centre } from '@shared/schemas/centres';
import { FormDialog, FormField, Input, Select } from '@/components';
import { AccountStatusField, CreditLimitField, GstinStateFields } from '@/components/BillingAccountFields';
import { addOrEditSave } from '@/lib/addOrEditSave';
import { useDialogForm } from '@/lib/dialogForm';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { textDefaults } from '@/lib/textDefaults';
import { useCreateCentreMutation, useUpdateCentreMutation } from '../api';
import { schemaFields } from '@/lib/schemaFields';

type FormIn = z.input<typeof centreCreateSchema>;

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

function defaults(c: Centre | null): FormIn {
  return {
    ...textDefaults(c, ['name', 'contact_person', 'phone', 'email', 'address', 'gstin', 'state_code', 'credit_limit']),
    discount_percent: text(c?.discount_percent ?? 0),
    credit_days: text(c?.credit_days ?? 30),
    share_basis: c?.share_basis ?? 'centre_commission',
    share_percent: text(c?.share_percent ?? 0),
    status: c?.status ?? 'active',
  };
}

/** Add Centre / Edit Centre: POST /api/centres, PUT /api/centres/:id; the server's 400s show under their fields. */
export function CentreFormDialog({
  open,
  onOpenChange,
  centre,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  centre: Centre | null;
}) {
  const { busy, save } = addOrEditSave(centre, useCreateCentreMutation(), useUpdateCentreMutation());
  const form = useDialogForm(centreCreateSchema, open, centre, defaults);
  const { errors } = form.formState;
  const err = (k: keyof FormIn) => errors[k]?.message;
  const onSubmit = form.handleSubmit((body) =>
    save(body, dialogSave(form, onOpenChange, fieldNamed(schemaFields(centreCreateSchema)), { PAYER_EXISTS: 'name' })),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={centre ? `Edit ${centre.name}` : 'Add Centre'}
      description="A partner clinic that registers patients and sends samples, billed on its account and settled monthly."
      busy={busy}
      form={{ id: centre ? 'edit-centre-form' : 'add-centre-form', onSubmit }}
      submitLabel={centre ? 'Save Centre' : 'Add Centre'}
      busyLabel={centre ? 'Saving...' : 'Adding...'}
      error={formError(form)}
    >
      <FormField label="Name" required error={err('name')} className="sm:col-span-2">
        <Input autoComplete="off" {...form.register('name')} />
      </FormField>
      <FormField label="Contact person" error={err('contact_person')}>
        <Input autoComplete="off" {...form.register('contact_person')} />
      </FormField>
      <FormField label="Phone" error={err('phone')}>
        <Input inputMode="tel" autoComplete="off" {...form.register('phone')} />
      </FormField>
      <FormField label="Email" error={err('email')} hint="Monthly statements are sent here">
        <Input type="email" autoComplete="off" {...form.register('email')} />
      </FormField>
      <AccountStatusField field={form.register('status')} error={err('status')} />
      <FormField label="Address" error={err('address')} className="sm:col-span-2">
        <Input autoComplete="off" {...form.register('address')} />
      </FormField>
      <GstinStateFields
        gstin={form.register('gstin')}
        state={form.register('state_code')}
        errors={{ gstin: err('gstin'), state: err('state_code') }}
        gstinHint="If registered; its first two digits are the state"
        inputProps={{ autoComplete: 'off', className: 'uppercase' }}
      />
      <FormField
        label="Rate: % off the lab’s prices"
        error={err('discount_percent')}
        hint="For tests its price list (Invoices > Payers) does not name"
      >
        <Input inputMode="decimal" {...form.register('discount_percent')} />
      </FormField>
      <FormField label="Credit days" error={err('credit_days')} hint="A bill unpaid past them holds the centre">
        <Input inputMode="numeric" {...form.register('credit_days')} />
      </FormField>
      <CreditLimitField field={form.register('credit_limit')} error={err('credit_limit')} />
      <FormField label="Share basis" error={err('share_basis')} hint="Never a commission to a referring doctor">
        <Select
          options={SHARE_BASES.map((b) => ({ value: b, label: SHARE_BASIS_LABELS[b] }))}
          {...form.register('share_basis')}
        />
      </FormField>
      <FormField label="Share %" error={err('share_percent')} hint="Of each line; a test or category may differ">
        <Input inputMode="decimal" {...form.register('share_percent')} />
      </FormField>
    </FormDialog>
  );
}
