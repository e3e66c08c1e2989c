import { moneySymbol } from '@/lib/format';
import { useId } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { FormField, Input, Select, Textarea } from '@/components';
import { STATUS_OPTIONS } from '../kinds';

/** The message of a react-hook-form error entry, whatever the form's value type. */
export function fieldError(errors: object, name: string): string | undefined {
  const e: unknown = (errors as Record<string, unknown>)[name];
  if (e && typeof e === 'object' && 'message' in e && typeof e.message === 'string') return e.message;
  return undefined;
}

export interface CommonFieldsProps<T extends FieldValues, O> {
  form: UseFormReturn<T, unknown, O>;
  /** Categories already in use for this kind, offered as suggestions. */
  categories: readonly string[];
  /** e.g. "Complete Blood Count": a realistic placeholder per kind. */
  namePlaceholder: string;
  codePlaceholder: string;
}

/**
 * Name, code, category, price, base price, status: the fields every catalogue item has, in the
 * same order in all three dialogs. The description goes last (see DescriptionField).
 */
export function CommonFields<T extends FieldValues, O>({
  form,
  categories,
  namePlaceholder,
  codePlaceholder,
}: CommonFieldsProps<T, O>) {
  const listId = useId();
  const errors = form.formState.errors;
  const reg = (name: string) => form.register(name as Path<T>);
  return (
    <>
      <FormField label="Name" required error={fieldError(errors, 'name')}>
        <Input autoComplete="off" placeholder={namePlaceholder} {...reg('name')} />
      </FormField>
      <FormField label="Code" required error={fieldError(errors, 'code')} hint="Unique short code, e.g. on bills.">
        <Input autoComplete="off" className="uppercase" placeholder={codePlaceholder} {...reg('code')} />
      </FormField>
      <FormField label="Category" error={fieldError(errors, 'category')}>
        <Input autoComplete="off" list={listId} placeholder="e.g. Haematology" {...reg('category')} />
      </FormField>
      <datalist id={listId}>
        {categories.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <FormField label="Status" error={fieldError(errors, 'status')}>
        <Select options={STATUS_OPTIONS} {...reg('status')} />
      </FormField>
      <FormField label={`Price (${moneySymbol()})`} required error={fieldError(errors, 'price')}>
        <Input type="number" inputMode="decimal" min={0} step="0.01" placeholder="0.00" {...reg('price')} />
      </FormField>
      <FormField
        label={`Base Price (${moneySymbol()})`}
        error={fieldError(errors, 'base_price')}
        hint="For the markup; empty: same as price."
      >
        <Input
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          placeholder="Same as price"
          {...reg('base_price')}
        />
      </FormField>
    </>
  );
}

export function DescriptionField<T extends FieldValues, O>({
  form,
  placeholder,
}: {
  form: UseFormReturn<T, unknown, O>;
  placeholder: string;
}) {
  return (
    <FormField label="Description" error={fieldError(form.formState.errors, 'description')} className="sm:col-span-2">
      <Textarea rows={2} placeholder={placeholder} {...form.register('description' as Path<T>)} />
    </FormField>
  );
}
