import type { z } from 'zod';
import type { DefaultValues } from 'react-hook-form';
import { PAYER_TYPES, PAYER_TYPE_LABELS, payerCreateSchema, type Payer } from '@shared/schemas/payers';
import { GST_STATES } from '@shared/gst';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { textDefaults } from '@/lib/textDefaults';
import { useCreatePayer, useUpdatePayer } from '../api';

type FormIn = z.input<typeof payerCreateSchema>;

const FIELDS = [
  'name',
  'type',
  'gstin',
  'state_code',
  'address',
  'contact_person',
  'phone',
  'email',
  'credit_limit',
  'payment_terms_days',
  'discount_percent',
  'status',
] as const;

const STATE_OPTIONS = Object.entries(GST_STATES).map(([code, name]) => ({ value: code, label: `${name} (${code})` }));

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
  const create = useCreatePayer();
  const update = useUpdatePayer();
  const form = useDialogForm(payerCreateSchema, open, payer, defaults);
  const { errors } = form.formState;
  const err = (k: keyof FormIn) => errors[k]?.message;
  const onSubmit = form.handleSubmit((body) => {
    const done = dialogSave(form, onOpenChange, fieldNamed(FIELDS), { PAYER_EXISTS: 'name' });
    if (payer) update.mutate({ id: payer.id, body }, done);
    else create.mutate(body, done);
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={payer ? `Edit ${payer.name}` : 'Add Payer'}
      description="A corporate client, insurer or TPA, referring hospital or collection centre that pays for patients."
      busy={create.isPending || update.isPending}
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
      <FormField label="Status" error={err('status')}>
        <Select
          {...form.register('status')}
          options={[
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive (no new bills)' },
          ]}
        />
      </FormField>
      <FormField label="GSTIN" error={err('gstin')} hint="Its first two digits are the state">
        <Input {...form.register('gstin')} />
      </FormField>
      <FormField label="State (place of supply)" error={err('state_code')} hint="Empty: from the GSTIN">
        <Select {...form.register('state_code')} placeholder="From the GSTIN" options={STATE_OPTIONS} />
      </FormField>
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
      <FormField label="Credit limit (₹)" error={err('credit_limit')} hint="Empty: no limit">
        <Input inputMode="decimal" {...form.register('credit_limit')} />
      </FormField>
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
