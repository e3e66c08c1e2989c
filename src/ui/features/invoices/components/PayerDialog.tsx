import { PAYER_TYPES, PAYER_TYPE_LABELS, type Payer } from '@shared/schemas/payers';
import { GST_STATES } from '@shared/gst';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useCreatePayer, useUpdatePayer } from '../api';

const STATE_OPTIONS = Object.entries(GST_STATES).map(([code, name]) => ({ value: code, label: `${name} (${code})` }));

const blank = (p?: Payer | null) => ({
  name: p?.name ?? '',
  type: p?.type ?? 'corporate',
  gstin: p?.gstin ?? '',
  state_code: p?.state_code ?? '',
  address: p?.address ?? '',
  contact_person: p?.contact_person ?? '',
  phone: p?.phone ?? '',
  email: p?.email ?? '',
  credit_limit: p?.credit_limit === null || p?.credit_limit === undefined ? '' : String(p.credit_limit),
  payment_terms_days: String(p?.payment_terms_days ?? 30),
  discount_percent: String(p?.discount_percent ?? 0),
  status: p?.status ?? 'active',
});

/**
 * Add a payer, or edit one (payer given). Numbers go to the server as typed: its schema (the same
 * one as the API's) names the bad field, shown under it.
 */
export function PayerDialog(props: { open: boolean; payer?: Payer | null; onOpenChange: (o: boolean) => void }) {
  // A fresh form each time it opens (or opens for another payer).
  return <PayerForm key={`${props.open}-${props.payer?.id ?? 'new'}`} {...props} />;
}

function PayerForm({
  open,
  payer,
  onOpenChange,
}: {
  open: boolean;
  payer?: Payer | null;
  onOpenChange: (o: boolean) => void;
}) {
  const create = useCreatePayer();
  const update = useUpdatePayer();
  const { values: f, setValues, errors, showErrors } = useFieldForm(() => blank(payer));
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) =>
    setValues((x) => ({ ...x, [k]: e.target.value }));
  const body = {
    name: f.name,
    type: f.type as Payer['type'],
    gstin: f.gstin || null,
    state_code: f.state_code || null,
    address: f.address || null,
    contact_person: f.contact_person || null,
    phone: f.phone || null,
    email: f.email || null,
    credit_limit: f.credit_limit === '' ? null : (f.credit_limit as unknown as number),
    payment_terms_days: f.payment_terms_days as unknown as number,
    discount_percent: f.discount_percent as unknown as number,
    status: f.status as Payer['status'],
  };
  const onError = showErrors;
  const busy = create.isPending || update.isPending;
  const save = () =>
    payer
      ? update.mutate({ id: payer.id, body }, { onSuccess: () => onOpenChange(false), onError })
      : create.mutate(body, { onSuccess: () => onOpenChange(false), onError });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={payer ? `Edit ${payer.name}` : 'Add Payer'}
      description="A corporate client, insurer or TPA, referring hospital or collection centre that pays for patients."
      busy={busy}
      onSubmit={save}
      submitLabel={payer ? 'Save Payer' : 'Add Payer'}
      error={errors.form}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Name" error={errors.name} required className="sm:col-span-2">
          <Input value={f.name} onChange={set('name')} />
        </FormField>
        <FormField label="Type" error={errors.type}>
          <Select
            value={f.type}
            onChange={set('type')}
            options={PAYER_TYPES.map((t) => ({ value: t, label: PAYER_TYPE_LABELS[t] }))}
          />
        </FormField>
        <FormField label="Status" error={errors.status}>
          <Select
            value={f.status}
            onChange={set('status')}
            options={[
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive (no new bills)' },
            ]}
          />
        </FormField>
        <FormField label="GSTIN" error={errors.gstin} hint="Its first two digits are the state">
          <Input value={f.gstin} onChange={set('gstin')} />
        </FormField>
        <FormField label="State (place of supply)" error={errors.state_code} hint="Empty: from the GSTIN">
          <Select
            value={f.state_code}
            onChange={set('state_code')}
            placeholder="From the GSTIN"
            options={STATE_OPTIONS}
          />
        </FormField>
        <FormField label="Address" error={errors.address} className="sm:col-span-2">
          <Input value={f.address} onChange={set('address')} />
        </FormField>
        <FormField label="Contact person" error={errors.contact_person}>
          <Input value={f.contact_person} onChange={set('contact_person')} />
        </FormField>
        <FormField label="Phone" error={errors.phone}>
          <Input inputMode="tel" value={f.phone} onChange={set('phone')} />
        </FormField>
        <FormField label="Email" error={errors.email} className="sm:col-span-2">
          <Input type="email" value={f.email} onChange={set('email')} />
        </FormField>
        <FormField label="Credit limit (₹)" error={errors.credit_limit} hint="Empty: no limit">
          <Input inputMode="decimal" value={f.credit_limit} onChange={set('credit_limit')} />
        </FormField>
        <FormField label="Payment terms (days)" error={errors.payment_terms_days}>
          <Input inputMode="numeric" value={f.payment_terms_days} onChange={set('payment_terms_days')} />
        </FormField>
        <FormField
          label="Discount % off the lab’s prices"
          error={errors.discount_percent}
          hint="For tests its price list does not name"
        >
          <Input inputMode="decimal" value={f.discount_percent} onChange={set('discount_percent')} />
        </FormField>
      </div>
    </FormDialog>
  );
}
