import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import type { CataloguePackage } from '@shared/schemas/catalogue';
import { FormField, Input } from '@/components';
import { useCatalogueList } from '../api';
import { COMMON_FIELDS, commonDefaults, packageFormSchema, withBasePrice, type PackageFormIn } from '../forms';
import { topField } from '@/lib/forms';
import { CommonFields, DescriptionField, fieldError } from './CommonFields';
import { ItemFormDialog, useItemForm } from './ItemFormDialog';
import { ItemPicker, pickerOption, priced, type PickerOption } from './ItemPicker';
import { IncludedTotal } from './IncludedTotal';

const FIELDS = [...COMMON_FIELDS, 'duration', 'test_ids', 'profile_ids'] as const;

function defaults(p: CataloguePackage | null): PackageFormIn {
  return {
    ...commonDefaults(p),
    duration: p?.duration ?? '',
    test_ids: p?.test_ids ?? [],
    profile_ids: p?.profile_ids ?? [],
  };
}

export interface PackageFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pkg: CataloguePackage | null;
  categories: readonly string[];
}

/** Add / Edit Test Package: tests and/or profiles at one price; saves through /api/test-packages. */
export function PackageFormDialog({ open, onOpenChange, pkg, categories }: PackageFormDialogProps) {
  const tests = useCatalogueList('test', {}, { enabled: open });
  const profiles = useCatalogueList('profile', {}, { enabled: open });
  const { form, dialog } = useItemForm('package', {
    schema: packageFormSchema,
    open,
    onOpenChange,
    row: pkg,
    defaults,
    fieldFor: topField(FIELDS),
    body: withBasePrice,
  });
  const { errors } = form.formState;

  const testOptions = useMemo(() => tests.data?.map((t) => pickerOption(t)), [tests.data]);
  const profileOptions = useMemo(
    () =>
      profiles.data?.map((p) =>
        pickerOption(p, `${p.tests.length} test${p.tests.length === 1 ? '' : 's'} · ${priced(p.price)}`),
      ),
    [profiles.data],
  );

  const testIds = (useWatch({ control: form.control, name: 'test_ids' }) ?? []).map(Number);
  const profileIds = (useWatch({ control: form.control, name: 'profile_ids' }) ?? []).map(Number);
  const price = useWatch({ control: form.control, name: 'price' });
  // A test picked on its own and also inside a picked profile would be done (and priced) twice.
  const testName = new Map((tests.data ?? []).map((t) => [t.id, t.name]));
  const overlap = (profiles.data ?? [])
    .filter((p) => profileIds.includes(p.id))
    .flatMap((p) =>
      p.test_ids.filter((t) => testIds.includes(t)).map((t) => `${testName.get(t) ?? `#${t}`} (in ${p.name})`),
    );
  const setIds = (name: 'test_ids' | 'profile_ids', ids: number[]) =>
    form.setValue(name, ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  // The profiles and the tests are picked alike; a list that did not load says so in its picker.
  const picker = (
    name: 'test_ids' | 'profile_ids',
    label: 'Profiles' | 'Tests',
    list: { isPending: boolean; error: Error | null },
    options: readonly PickerOption[] | undefined,
    value: number[],
    emptyText: string,
  ) => (
    <ItemPicker
      label={label}
      options={options}
      value={value}
      onChange={(ids) => setIds(name, ids)}
      loading={list.isPending}
      error={list.error ? `Could not load ${label.toLowerCase()}: ${list.error.message}` : fieldError(errors, name)}
      emptyText={emptyText}
    />
  );

  return (
    <ItemFormDialog
      {...dialog}
      formId={pkg ? 'edit-package-form' : 'add-package-form'}
      size="xl"
      title={pkg ? `Edit Package: ${pkg.name}` : 'Add Test Package'}
      description="Tests and profiles offered together at one price, e.g. a yearly health check."
    >
      <CommonFields
        form={form}
        categories={categories}
        namePlaceholder="e.g. Full Body Checkup"
        codePlaceholder="e.g. FBC-PKG"
      />
      <FormField label="Duration" error={errors.duration?.message}>
        <Input autoComplete="off" placeholder="e.g. Same day, 24 hours" {...form.register('duration')} />
      </FormField>
      <DescriptionField form={form} placeholder="Who the package is for, what it covers..." />
      {picker('profile_ids', 'Profiles', profiles, profileOptions, profileIds, 'No test profiles yet.')}
      {picker('test_ids', 'Tests', tests, testOptions, testIds, 'No individual tests yet.')}
      <div className="sm:col-span-2">
        {overlap.length > 0 && (
          <p className="text-[13px] text-amber-800">
            Also in a chosen profile: {overlap.join(', ')}. It is only needed once.
          </p>
        )}
        <IncludedTotal
          ids={testIds}
          items={tests.data}
          extra={{ ids: profileIds, items: profiles.data }}
          price={price}
        />
      </div>
    </ItemFormDialog>
  );
}
