import type { z } from 'zod';
import { GST_STATES } from '@shared/gst';
import { SHARE_BASES, SHARE_BASIS_LABELS, centreCreateSchema, type Centre } from '@shared/schemas/centres';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { textDefaults } from '@/lib/textDefaults';
import { useCreateCentreMutation, useUpdateCentreMutation } from '../api';

type FormIn = z.input<typeof centreCreateSchema>;

const FIELDS = [
  'name',
  'contact_person',
  'phone',
  'email',
  'address',
  'gstin',
  'state_code',
  'discount_percent',
  'credit_days',
  'credit_limit',
  'share_basis',
  'share_percent',
  'status',
] as const;

const STATE_OPTIONS = Object.entries(GST_STATES).map(([code, name]) => ({ value: code, label: `${name} (${code})` }));
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
  const create = useCreateCentreMutation();
  const update = useUpdateCentreMutation();
  const form = useDialogForm(centreCreateSchema, open, centre, defaults);
  const { errors } = form.formState;
  const err = (k: keyof FormIn) => errors[k]?.message;
  const onSubmit = form.handleSubmit((body) => {
    const done = dialogSave(form, onOpenChange, fieldNamed(FIELDS), { PAYER_EXISTS: 'name' });
    if (centre) update.mutate({ id: centre.id, body }, done);
    else create.mutate(body, done);
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={centre ? `Edit ${centre.name}` : 'Add Centre'}
      description="A partner clinic that registers patients and sends samples, billed on its account and settled monthly."
      busy={create.isPending || update.isPending}
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
      <FormField label="Status" error={err('status')}>
        <Select
          options={[
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive (no new bills)' },
          ]}
          {...form.register('status')}
        />
      </FormField>
      <FormField label="Address" error={err('address')} className="sm:col-span-2">
        <Input autoComplete="off" {...form.register('address')} />
      </FormField>
      <FormField label="GSTIN" error={err('gstin')} hint="If registered; its first two digits are the state">
        <Input autoComplete="off" className="uppercase" {...form.register('gstin')} />
      </FormField>
      <FormField label="State (place of supply)" error={err('state_code')} hint="Empty: from the GSTIN">
        <Select placeholder="From the GSTIN" options={STATE_OPTIONS} {...form.register('state_code')} />
      </FormField>
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
      <FormField label="Credit limit (₹)" error={err('credit_limit')} hint="Empty: no limit">
        <Input inputMode="decimal" {...form.register('credit_limit')} />
      </FormField>
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
