import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { SPECIALIZATIONS } from '@shared/constants';
import { PERSON_TITLES, type PersonTitle } from '@shared/person-name';
import { FormField } from './FormField';
import { Input, Select } from './Input';

/**
 * Fields the people forms share (Add / Edit User, Add / Edit Doctor), for react-hook-form: give each
 * field its `form.register(...)` and its message.
 */

/** A saved person (user or doctor), as far as these fields go. */
interface PersonRecord {
  title: PersonTitle | null;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  specialization: string | null;
}

/** The person fields' starting values: the record's, an empty text for what it lacks (or a new one). */
export function staffPersonDefaults(p: PersonRecord | null) {
  return {
    title: p?.title ?? '',
    first_name: p?.first_name ?? '',
    last_name: p?.last_name ?? '',
    email: p?.email ?? '',
    phone: p?.phone ?? '',
    specialization: p?.specialization ?? '',
  };
}

/** The person fields as the API takes them (email aside: a user must have one, a doctor need not). */
export function staffPersonBody(v: {
  title?: PersonTitle | null | undefined;
  first_name: string;
  last_name: string;
  phone?: string | null | undefined;
  specialization?: string | null | undefined;
}) {
  return {
    title: v.title ?? null,
    first_name: v.first_name,
    last_name: v.last_name,
    phone: v.phone ?? null,
    specialization: v.specialization ?? null,
  };
}

/**
 * Title (optional: Dr, Prof, ...; shown before the name, never typed into it), First Name and Last
 * Name, both required.
 */
export function PersonNameFields({
  title,
  first,
  last,
  errors,
}: {
  title?: UseFormRegisterReturn;
  first: UseFormRegisterReturn;
  last: UseFormRegisterReturn;
  errors: { title?: string | undefined; first?: string | undefined; last?: string | undefined };
}) {
  return (
    <>
      {title && (
        <FormField label="Title" error={errors.title}>
          <Select placeholder="No title" options={PERSON_TITLES.map((t) => ({ value: t, label: t }))} {...title} />
        </FormField>
      )}
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
