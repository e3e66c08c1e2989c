import type { Path } from 'react-hook-form';
import { SAMPLE_TYPES, type CatalogueTest } from '@shared/schemas/catalogue';
import { DEFAULT_SAC, TAX_CATEGORIES, TAX_CATEGORY_LABELS } from '@shared/gst';
import { FormField, Input, Select, type InputProps } from '@/components';
import { COMMON_FIELDS, commonDefaults, testFormSchema, withBasePrice, type TestFormIn } from '../forms';
import { topField } from '@/lib/forms';
import { CommonFields, DescriptionField, fieldError } from './CommonFields';
import { ItemFormDialog, useItemForm } from './ItemFormDialog';
import { ResultRuleFields } from './ResultRuleFields';
import { ReferenceBandsField, bandRows } from './ReferenceBandsField';

const NUMBER_FIELDS = [
  'decimals',
  'plausible_low',
  'plausible_high',
  'critical_low',
  'critical_high',
  'delta_limit',
  'delta_window_days',
] as const;
const RULE_FIELDS = [
  'result_type',
  'result_template',
  'container',
  'choices',
  'formula',
  'aliases',
  'delta_kind',
  ...NUMBER_FIELDS,
] as const;

const FIELDS = [
  ...COMMON_FIELDS,
  'unit',
  'normal_range',
  'sample_type',
  'turnaround_hours',
  'target_tat_minutes',
  'method',
  'loinc_code',
  'tax_category',
  'sac_code',
  ...RULE_FIELDS,
] as const;

type TextField = 'unit' | 'normal_range' | 'method' | 'loinc_code' | 'sac_code';

function defaults(t: CatalogueTest | null): TestFormIn {
  return {
    ...commonDefaults(t),
    unit: t?.unit ?? '',
    loinc_code: t?.loinc_code ?? '',
    tax_category: t?.tax_category ?? 'exempt',
    sac_code: t?.sac_code ?? '',
    normal_range: t?.normal_range ?? '',
    reference_ranges: bandRows(t),
    sample_type: t?.sample_type ?? '',
    method: t?.method ?? '',
    delta_kind: t?.delta_kind ?? '',
    turnaround_hours:
      t?.turnaround_hours === null || t?.turnaround_hours === undefined ? '' : String(t.turnaround_hours),
    target_tat_minutes:
      t?.target_tat_minutes === null || t?.target_tat_minutes === undefined ? '' : String(t.target_tat_minutes),
    result_type: t?.result_type ?? 'numeric',
    result_template: t?.result_template ?? '',
    container: t?.container ?? '',
    choices: t?.choices.join(', ') ?? '',
    formula: t?.formula ?? '',
    aliases: t?.aliases.join(', ') ?? '',
    ...Object.fromEntries(NUMBER_FIELDS.map((k) => [k, t?.[k] == null ? '' : String(t[k])])),
  };
}

export interface TestFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: Add Test; a test: edit it. */
  test: CatalogueTest | null;
  categories: readonly string[];
}

/** Add / Edit Individual Test: saves through POST /api/tests or PUT /api/tests/:id. */
export function TestFormDialog({ open, onOpenChange, test, categories }: TestFormDialogProps) {
  const { form, dialog } = useItemForm('test', {
    schema: testFormSchema,
    open,
    onOpenChange,
    row: test,
    defaults,
    // A band's problem goes under its own cell ("reference_ranges.2.age_max"), the rest by field.
    fieldFor: (p) => (/^reference_ranges(\.\d+\.\w+)?$/.test(p) ? (p as Path<TestFormIn>) : topField(FIELDS)(p)),
    // A template belongs to a structured test only; switching the type away drops it.
    body: (v) => ({ ...withBasePrice(v), ...(v.result_type === 'structured' ? {} : { result_template: null }) }),
  });
  const { errors } = form.formState;
  // A test's text boxes and whole-number boxes: label, hint and the message under each alike.
  const text = (name: TextField, label: string, hint: string | undefined, input: InputProps) => (
    <FormField label={label} hint={hint} error={fieldError(errors, name)}>
      <Input autoComplete="off" {...input} {...form.register(name)} />
    </FormField>
  );
  const wholeNumber = (
    name: 'turnaround_hours' | 'target_tat_minutes',
    label: string,
    hint: string,
    input: InputProps,
  ) => (
    <FormField label={label} hint={hint} error={fieldError(errors, name)}>
      <Input type="number" inputMode="numeric" step={1} {...input} {...form.register(name)} />
    </FormField>
  );

  return (
    <ItemFormDialog
      {...dialog}
      formId={test ? 'edit-test-form' : 'add-test-form'}
      size="xl"
      title={test ? `Edit Test: ${test.name}` : 'Add Individual Test'}
      description={
        test
          ? 'Price changes are kept in the price history; bills already issued keep their prices.'
          : 'A test the lab performs and bills on its own.'
      }
    >
      <CommonFields
        form={form}
        categories={categories}
        namePlaceholder="e.g. Fasting Blood Sugar"
        codePlaceholder="e.g. FBS"
      />
      <FormField label="Sample Type" error={errors.sample_type?.message}>
        <Select
          placeholder="Select sample type"
          options={SAMPLE_TYPES.map((s) => ({ value: s, label: s }))}
          {...form.register('sample_type')}
        />
      </FormField>
      {wholeNumber(
        'turnaround_hours',
        'Turnaround Time (hours)',
        'The target when Target TAT is empty (reports and the Enhanced Dashboard)',
        { min: 0, placeholder: 'e.g. 24' },
      )}
      {wholeNumber(
        'target_tat_minutes',
        'Target TAT (minutes)',
        "Collection to verification; the target of Turnaround by Test and the Enhanced Dashboard's breaches",
        { min: 1, placeholder: 'e.g. 120' },
      )}
      {text('unit', 'Unit', undefined, { placeholder: 'e.g. mg/dL' })}
      {text('normal_range', 'Normal Range', 'For everyone no row of Ranges by Sex and Age fits', {
        placeholder: 'Adult range, e.g. 70-100',
      })}
      {text('method', 'Method', 'Printed under the test on the report (ISO 15189)', {
        maxLength: 100,
        placeholder: 'e.g. Photometry, GOD-POD',
      })}
      {text(
        'loinc_code',
        'LOINC Code',
        "Sent with the HL7 and FHIR reports so a hospital's system knows the test; optional",
        { placeholder: 'e.g. 1558-6' },
      )}
      <FormField
        label="Tax Category"
        hint="Diagnostic tests are GST-exempt; a taxable service (e.g. cosmetic) or goods sold carry their rate"
        error={fieldError(errors, 'tax_category')}
      >
        <Select
          options={TAX_CATEGORIES.map((c) => ({ value: c, label: TAX_CATEGORY_LABELS[c] }))}
          {...form.register('tax_category')}
        />
      </FormField>
      {text(
        'sac_code',
        'SAC / HSN Code',
        `Printed on tax invoices; needed for a taxable test. Left empty, an exempt test prints ${DEFAULT_SAC}`,
        { inputMode: 'numeric', placeholder: 'e.g. 999722' },
      )}
      <DescriptionField form={form} placeholder="What the test measures, preparation (e.g. 8-10 h fasting)..." />
      <ReferenceBandsField form={form} />
      <ResultRuleFields form={form} />
    </ItemFormDialog>
  );
}
