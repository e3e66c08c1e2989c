import type { UseFormReturn } from 'react-hook-form';
import { RESULT_TYPES } from '@shared/resultTypes';
import { TUBES } from '@shared/tubes';
import { TEMPLATE_IDS, templateById } from '@shared/templates';
import { FormField, Input, Select } from '@/components';
import type { TestFormIn } from '../forms';
import { fieldError } from './CommonFields';

const TYPE_LABELS: Record<(typeof RESULT_TYPES)[number], string> = {
  numeric: 'Number',
  text: 'Text',
  choice: 'Choice from a list',
  calculated: 'Calculated (formula)',
  structured: 'Structured (parameters from a template)',
};

/**
 * How a test's results are typed and judged: type, decimals, tube, choices or formula, the limits
 * that refuse typing errors and mark critical values, and the delta check. The server checks each
 * against the same schema and the test as a whole (a choice test needs choices...).
 */
export function ResultRuleFields({ form }: { form: UseFormReturn<TestFormIn, unknown, unknown> }) {
  const { errors } = form.formState;
  const type = form.watch('result_type');
  const num = (name: keyof TestFormIn, label: string, placeholder: string) => (
    <FormField label={label} error={fieldError(errors, name)}>
      <Input inputMode="decimal" autoComplete="off" placeholder={placeholder} {...form.register(name)} />
    </FormField>
  );
  return (
    <fieldset className="grid items-start gap-4 border-t border-slate-100 pt-4 sm:col-span-2 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-semibold text-slate-900">Result</legend>
      <FormField label="Result Type" error={fieldError(errors, 'result_type')}>
        <Select
          options={RESULT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          {...form.register('result_type')}
        />
      </FormField>
      <FormField
        label="Tube / Container"
        error={fieldError(errors, 'container')}
        hint="Billing groups tests into tubes by this"
      >
        <Select
          placeholder="Usual for the sample type"
          options={TUBES.map((t) => ({ value: t.id, label: t.label }))}
          {...form.register('container')}
        />
      </FormField>
      {type === 'structured' && (
        <FormField
          label="Result Template"
          required
          error={fieldError(errors, 'result_template')}
          hint="Entered parameter by parameter, flagged, and printed as a table"
          className="sm:col-span-2"
        >
          <Select
            placeholder="Choose a template"
            options={TEMPLATE_IDS.map((id) => ({ value: id, label: templateById(id)!.name }))}
            {...form.register('result_template')}
          />
        </FormField>
      )}
      {type === 'choice' && (
        <FormField
          label="Choices"
          required
          error={fieldError(errors, 'choices')}
          hint="Separated by commas, e.g. Negative, Positive"
          className="sm:col-span-2"
        >
          <Input autoComplete="off" {...form.register('choices')} />
        </FormField>
      )}
      {type === 'calculated' && (
        <FormField
          label="Formula"
          required
          error={fieldError(errors, 'formula')}
          hint="Test codes with + - * / ( ), and an optional condition: CHOL - HDL - TG/5 if TG <= 400"
          className="sm:col-span-2"
        >
          <Input autoComplete="off" className="font-mono" {...form.register('formula')} />
        </FormField>
      )}
      {(type === 'numeric' || type === 'calculated') && (
        <>
          {num('decimals', 'Decimals', 'e.g. 1')}
          <span className="hidden sm:block" />
          {num('plausible_low', 'Plausible Low', 'below this is a typing error')}
          {num('plausible_high', 'Plausible High', 'e.g. 25 for haemoglobin')}
          {num('critical_low', 'Critical Low', 'call the doctor at or below')}
          {num('critical_high', 'Critical High', 'call the doctor at or above')}
          {num('delta_limit', 'Delta Limit', 'e.g. 3 (or 50 for %)')}
          <FormField label="Delta Kind" error={fieldError(errors, 'delta_kind')}>
            <Select
              placeholder="No delta check"
              options={[
                { value: 'absolute', label: 'Absolute (in the unit)' },
                { value: 'percent', label: 'Percent of the previous value' },
              ]}
              {...form.register('delta_kind')}
            />
          </FormField>
          {num('delta_window_days', 'Delta Window (days)', 'compare with results this recent')}
        </>
      )}
      <FormField
        label="Other Names"
        error={fieldError(errors, 'aliases')}
        hint="Words staff search by, separated by commas, e.g. Sugar, Glucose"
        className="sm:col-span-2"
      >
        <Input autoComplete="off" {...form.register('aliases')} />
      </FormField>
    </fieldset>
  );
}
