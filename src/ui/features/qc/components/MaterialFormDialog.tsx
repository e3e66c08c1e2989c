import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  QC_CONTROL_TYPES,
  QC_DEFAULT_EXPIRY_DAYS,
  QC_LEVELS,
  qcMaterialCreateSchema,
  type QcMaterial,
} from '@shared/schemas/qc';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { useActiveTests, useCreateQcMaterialMutation, useUpdateQcMaterialMutation } from '../api';
import { formError, topField } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { schemaFields } from '@/lib/schemaFields';
import { addOrEditSave } from '@/lib/addOrEditSave';

type FormIn = z.input<typeof qcMaterialCreateSchema>;

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

function defaults(m: QcMaterial | null): FormIn {
  return {
    name: m?.name ?? '',
    test_id: m ? String(m.test_id) : '',
    level: m?.level ?? '',
    control_type: m?.control_type ?? 'Internal',
    lot_number: m?.lot_number ?? '',
    expiry_date: m?.expiry_date ?? '',
    target_mean: text(m?.target_mean),
    target_sd: text(m?.target_sd),
    unit: m?.unit ?? '',
  };
}

export interface MaterialFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: Add Control Material; a material: edit it. */
  material: QcMaterial | null;
}

/** Add Control Material / Edit: POST /api/qc/materials or PUT /api/qc/materials/:id. */
export function MaterialFormDialog({ open, onOpenChange, material }: MaterialFormDialogProps) {
  const { busy, save } = addOrEditSave(material, useCreateQcMaterialMutation(), useUpdateQcMaterialMutation());
  const tests = useActiveTests(open);
  const levelsId = useId();
  const form = useDialogForm(qcMaterialCreateSchema, open, material, defaults);
  const { errors } = form.formState;
  const err = (k: keyof FormIn) => errors[k]?.message;
  // The lot's target mean and SD: decimals of any precision, as the insert prints them.
  const target = (name: 'target_mean' | 'target_sd', label: string, placeholder: string, min?: number) => (
    <FormField label={label} required error={err(name)}>
      <Input
        type="number"
        inputMode="decimal"
        step="any"
        min={min}
        placeholder={placeholder}
        {...form.register(name)}
      />
    </FormField>
  );

  const testId = useWatch({ control: form.control, name: 'test_id' });
  const chosenTest = tests.data?.find((t) => String(t.id) === String(testId));
  const testOptions = (tests.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }));
  // Editing a material of a test since deactivated: keep it choosable so the form still shows it.
  if (material && !testOptions.some((o) => o.value === String(material.test_id))) {
    testOptions.unshift({ value: String(material.test_id), label: `${material.test_name} (${material.test_code})` });
  }
  const lockedTest = Boolean(material && material.run_count > 0);

  const onSubmit = form.handleSubmit((body) =>
    save(
      body,
      dialogSave(form, onOpenChange, topField(schemaFields(qcMaterialCreateSchema)), { LOT_TAKEN: 'lot_number' }),
    ),
  );

  const formId = material ? 'edit-qc-material-form' : 'add-qc-material-form';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={material ? `Edit Control Material: ${material.control_id}` : 'Add Control Material'}
      description={
        material
          ? 'Runs already recorded keep the status they were given; new runs are judged against these targets.'
          : 'One lot of one control level for a test, with the target mean and SD from the lot insert or your own data.'
      }
      busy={busy}
      form={{ id: formId, onSubmit }}
      submitLabel={material ? 'Save Changes' : 'Add Control Material'}
      error={formError(form)}
    >
      <FormField label="Name" required error={err('name')} className="sm:col-span-2">
        <Input autoComplete="off" placeholder="e.g. Bio-Rad Lyphochek Assayed Chemistry" {...form.register('name')} />
      </FormField>
      {lockedTest && material ? (
        <FormField label="Test" hint="Runs are recorded against this test: it cannot change.">
          <Input readOnly value={`${material.test_name} (${material.test_code})`} />
        </FormField>
      ) : (
        <FormField
          label="Test"
          required
          error={err('test_id')}
          hint={tests.isError ? 'Could not load the tests.' : undefined}
        >
          <Select
            placeholder={tests.isPending ? 'Loading tests...' : 'Select test'}
            options={testOptions}
            {...form.register('test_id')}
          />
        </FormField>
      )}
      <FormField label="Level" error={err('level')}>
        {(control) => (
          <>
            <Input
              list={levelsId}
              autoComplete="off"
              placeholder="e.g. Level 1 (Normal)"
              {...control}
              {...form.register('level')}
            />
            <datalist id={levelsId}>
              {QC_LEVELS.map((l) => (
                <option key={l} value={l} />
              ))}
            </datalist>
          </>
        )}
      </FormField>
      <FormField label="Control Type" required error={err('control_type')}>
        <Select options={QC_CONTROL_TYPES.map((t) => ({ value: t, label: t }))} {...form.register('control_type')} />
      </FormField>
      <FormField
        label="Lot Number"
        error={err('lot_number')}
        hint={material ? undefined : 'Leave empty to number it LOT + the next 3-digit number.'}
      >
        <Input
          autoComplete="off"
          placeholder="e.g. 26430"
          className="uppercase placeholder:normal-case"
          {...form.register('lot_number')}
        />
      </FormField>
      <FormField
        label="Expiry Date"
        error={err('expiry_date')}
        hint={material ? undefined : `Leave empty for ${QC_DEFAULT_EXPIRY_DAYS} days from today.`}
      >
        <Input type="date" {...form.register('expiry_date')} />
      </FormField>
      <FormField
        label="Unit"
        error={err('unit')}
        hint={chosenTest?.unit ? `Empty: the test's unit (${chosenTest.unit}).` : undefined}
      >
        <Input autoComplete="off" placeholder={chosenTest?.unit ?? 'e.g. mg/dL'} {...form.register('unit')} />
      </FormField>
      {target('target_mean', 'Target Mean', 'e.g. 100')}
      {target('target_sd', 'Target SD', 'e.g. 2.5', 0)}
    </FormDialog>
  );
}
