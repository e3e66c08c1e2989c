import type { z } from 'zod';
import type { DefaultValues } from 'react-hook-form';
import { PAYER_TYPES, PAYER_TYPE_LABELS, payerCreateSchema, type Payer } from '@shared/schemas/payers';
import { FormDialog, FormField, Input, Select } from '@/components';
import { AccountStatusField, CreditLimitField, GstinStateFields } from '@/components/BillingAccountFields';
import { addOrEditSave } from '@/lib/addOrEditSave';
import { useDialogForm } from '@/lib/dialogForm';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { textDefaults } from '@/lib/textDefaults';
import { useCreatePayer, useUpdatePayer } from '../api';
import { schemaFields } from '@/lib/schemaFields';

type FormIn = z.input<typeof payerCreateSchema>;

function defaults(p: Payer | null): DefaultValues<FormIn> {
  return {
    ...textDefaults(p, ['name', 'gstin', 'state_code', 'address', 'contact_person', 'phone', 'email', 'credit_limit']),
    type: p?.type ?? 'corporate',
    payment_terms_days: String(p?.payment_terms_days ?? 30),
    discount_percent: String(p?.discount_percent ?? 0),
    status: p?.status ?? 'active',
  };
}

/**
 * Add a payer, or edit one (payer given): the form checks the API's own schema, and the server's
 * refusal goes under the field it names.
 */
export function PayerDialog({
  open,
  payer = null,
  onOpenChange,
}: {
  open: boolean;
  payer?: Payer | null;
  onOpenChange: (o: boolean) => void;
}) {
  const { busy, save } = addOrEditSave(payer, useCreatePayer(), useUpdatePayer());
  const form = useDialogForm(payerCreateSchema, open, payer, defaults);
  const { errors } = form.formState;
  const err = (k: keyof FormIn) => errors[k]?.message;
  const onSubmit = form.handleSubmit((body) =>
    save(body, dialogSave(form, onOpenChange, fieldNamed(schemaFields(payerCreateSchema)), { PAYER_EXISTS: 'name' })),
  );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={payer ? `Edit ${payer.name}` : 'Add Payer'}
      description="A corporate client, insurer or TPA, referring hospital or collection centre that pays for patients."
      busy={busy}
      form={{ id: payer ? 'edit-payer-form' : 'add-payer-form', onSubmit }}
      submitLabel={payer ? 'Save Payer' : 'Add Payer'}
      error={formError(form)}
    >
      <FormField label="Name" error={err('name')} required className="sm:col-span-2">
        <Input {...form.register('name')} />
      </FormField>
      <FormField label="Type" error={err('type')}>
        <Select
          {...form.register('type')}
          options={PAYER_TYPES.map((t) => ({ value: t, label: PAYER_TYPE_LABELS[t] }))}
        />
      </FormField>
      <AccountStatusField field={form.register('status')} error={err('status')} />
      <GstinStateFields
        gstin={form.register('gstin')}
        state={form.register('state_code')}
        errors={{ gstin: err('gstin'), state: err('state_code') }}
        gstinHint="Its first two digits are the state"
      />
      <FormField label="Address" error={err('address')} className="sm:col-span-2">
        <Input {...form.register('address')} />
      </FormField>
      <FormField label="Contact person" error={err('contact_person')}>
        <Input {...form.register('contact_person')} />
      </FormField>
      <FormField label="Phone" error={err('phone')}>
        <Input inputMode="tel" {...form.register('phone')} />
      </FormField>
      <FormField label="Email" error={err('email')} className="sm:col-span-2">
        <Input type="email" {...form.register('email')} />
      </FormField>
      <CreditLimitField field={form.register('credit_limit')} error={err('credit_limit')} />
      <FormField label="Payment terms (days)" error={err('payment_terms_days')}>
        <Input inputMode="numeric" {...form.register('payment_terms_days')} />
      </FormField>
      <FormField
        label="Discount % off the lab’s prices"
        error={err('discount_percent')}
        hint="For tests its price list does not name"
      >
        <Input inputMode="decimal" {...form.register('discount_percent')} />
      </FormField>
    </FormDialog>
  );
}
