import type { InputProps } from './Input';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { GST_STATES } from '@shared/gst';
import { FormField } from './FormField';
import { Input, Select } from './Input';

/**
 * The fields a lab's billing accounts share (a centre, a payer): one place for the GST state list,
 * the active / inactive choice and the credit limit, so the two dialogs say them alike.
 */

/** The GST states as options: "Karnataka (29)". */
export const GST_STATE_OPTIONS = Object.entries(GST_STATES).map(([code, name]) => ({
  value: code,
  label: `${name} (${code})`,
}));

type Field = UseFormRegisterReturn;

/** Active, or inactive: the account keeps its bills but takes no new one. */
export function AccountStatusField({ field, error }: { field: Field; error: string | undefined }) {
  return (
    <FormField label="Status" error={error}>
      <Select
        options={[
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Inactive (no new bills)' },
        ]}
        {...field}
      />
    </FormField>
  );
}

/** The GSTIN and the state of supply, which an empty choice takes from the GSTIN. */
export function GstinStateFields({
  gstin,
  state,
  errors,
  gstinHint,
  inputProps,
}: {
  gstin: Field;
  state: Field;
  errors: { gstin: string | undefined; state: string | undefined };
  gstinHint: string;
  inputProps?: InputProps;
}) {
  return (
    <>
      <FormField label="GSTIN" error={errors.gstin} hint={gstinHint}>
        <Input {...inputProps} {...gstin} />
      </FormField>
      <FormField label="State (place of supply)" error={errors.state} hint="Empty: from the GSTIN">
        <Select placeholder="From the GSTIN" options={GST_STATE_OPTIONS} {...state} />
      </FormField>
    </>
  );
}

/** The most the account may owe; empty for no limit. */
export function CreditLimitField({ field, error }: { field: Field; error: string | undefined }) {
  return (
    <FormField label="Credit limit (₹)" error={error} hint="Empty: no limit">
      <Input inputMode="decimal" {...field} />
    </FormField>
  );
}
