import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { SPECIALIZATIONS } from '@shared/constants';
import { FormField } from './FormField';
import { Input } from './Input';

/**
 * Fields the people forms share (Add / Edit User, Add / Edit Doctor), for react-hook-form: give each
 * field its `form.register(...)` and its message.
 */

/** First Name and Last Name, both required. */
export function PersonNameFields({
  first,
  last,
  errors,
}: {
  first: UseFormRegisterReturn;
  last: UseFormRegisterReturn;
  errors: { first?: string | undefined; last?: string | undefined };
}) {
  return (
    <>
      <FormField label="First Name" required error={errors.first}>
        <Input autoComplete="off" {...first} />
      </FormField>
      <FormField label="Last Name" required error={errors.last}>
        <Input autoComplete="off" {...last} />
      </FormField>
    </>
  );
}

/** Phone, then Specialization: free text with the common ones offered (`listId` names the datalist). */
export function PhoneAndSpecialization({
  listId,
  phone,
  specialization,
  errors,
}: {
  listId: string;
  phone: UseFormRegisterReturn;
  specialization: UseFormRegisterReturn;
  errors: { phone?: string | undefined; specialization?: string | undefined };
}) {
  return (
    <>
      <FormField label="Phone" error={errors.phone}>
        <Input type="tel" placeholder="+91 98765 43210" {...phone} />
      </FormField>
      <FormField label="Specialization" error={errors.specialization} hint="Pick a common one or type your own.">
        <Input list={listId} {...specialization} />
      </FormField>
      <datalist id={listId}>
        {SPECIALIZATIONS.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
    </>
  );
}

/** A new password and its confirmation, side by side. */
export function NewPasswordFields({
  label = 'Password',
  required,
  hint,
  className,
  password,
  confirm,
  errors,
}: {
  label?: string;
  required: boolean;
  hint: ReactNode;
  className?: string;
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: string | undefined; confirm?: string | undefined };
}) {
  return (
    <>
      <FormField label={label} required={required} error={errors.password} hint={hint} className={className}>
        <Input type="password" autoComplete="new-password" {...password} />
      </FormField>
      <FormField label="Confirm Password" required={required} error={errors.confirm}>
        <Input type="password" autoComplete="new-password" {...confirm} />
      </FormField>
    </>
  );
}
