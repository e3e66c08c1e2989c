import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { CataloguePackage } from '@shared/schemas/catalogue';
import { FormField, Input } from '@/components';
import { formatMoney } from '@/lib/format';
import { useCatalogueList, useSaveItemMutation } from '../api';
import { amountText, packageFormSchema, withBasePrice, type PackageFormIn } from '../forms';
import { applyServerErrors, topField } from '@/lib/forms';
import { CommonFields, DescriptionField, fieldError } from './CommonFields';
import { ItemFormDialog } from './ItemFormDialog';
import { ItemPicker, type PickerOption } from './ItemPicker';
import { IncludedTotal } from './IncludedTotal';

type FormOut = z.output<typeof packageFormSchema>;

const FIELDS = [
  'name',
  'code',
  'category',
  'price',
  'base_price',
  'status',
  'description',
  'duration',
  'test_ids',
  'profile_ids',
] as const;

function defaults(p: CataloguePackage | null): PackageFormIn {
  return {
    name: p?.name ?? '',
    code: p?.code ?? '',
    category: p?.category ?? '',
    price: amountText(p?.price),
    base_price: amountText(p?.base_price),
    status: p?.status === 'inactive' ? 'inactive' : 'active',
    description: p?.description ?? '',
    duration: p?.duration ?? '',
    test_ids: p?.test_ids ?? [],
    profile_ids: p?.profile_ids ?? [],
  };
}

const priced = (price: number) => formatMoney(Math.round(price * 100));

export interface PackageFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pkg: CataloguePackage | null;
  categories: readonly string[];
}

/** Add / Edit Test Package: tests and/or profiles at one price; saves through /api/test-packages. */
export function PackageFormDialog({ open, onOpenChange, pkg, categories }: PackageFormDialogProps) {
  const save = useSaveItemMutation('package');
  const tests = useCatalogueList('test', {}, { enabled: open });
  const profiles = useCatalogueList('profile', {}, { enabled: open });
  const form = useForm<PackageFormIn, unknown, FormOut>({
    resolver: zodResolver(packageFormSchema),
    defaultValues: defaults(pkg),
    mode: 'onBlur',
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset(defaults(pkg));
  }, [open, pkg, form]);

  const testOptions = useMemo<PickerOption[] | undefined>(
    () => tests.data?.map((t) => ({ id: t.id, name: t.name, code: t.code, status: t.status, hint: priced(t.price) })),
    [tests.data],
  );
  const profileOptions = useMemo<PickerOption[] | undefined>(
    () =>
      profiles.data?.map((p) => ({
        id: p.id,
        name: p.name,
        code: p.code,
        status: p.status,
        hint: `${p.tests.length} test${p.tests.length === 1 ? '' : 's'} · ${priced(p.price)}`,
      })),
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

  const onSubmit = form.handleSubmit((body) =>
    save.mutate(
      { id: pkg?.id ?? null, body: withBasePrice(body) },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyServerErrors(err, form.setError, topField(FIELDS), { CODE_TAKEN: 'code' }),
      },
    ),
  );

  const formId = pkg ? 'edit-package-form' : 'add-package-form';
  return (
    <ItemFormDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={save.isPending}
      editing={Boolean(pkg)}
      formId={formId}
      size="xl"
      title={pkg ? `Edit Package: ${pkg.name}` : 'Add Test Package'}
      description="Tests and profiles offered together at one price, e.g. a yearly health check."
      onSubmit={onSubmit}
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
      <ItemPicker
        label="Profiles"
        options={profileOptions}
        value={profileIds}
        onChange={(ids) => setIds('profile_ids', ids)}
        loading={profiles.isPending}
        error={
          profiles.error ? `Could not load profiles: ${profiles.error.message}` : fieldError(errors, 'profile_ids')
        }
        emptyText="No test profiles yet."
      />
      <ItemPicker
        label="Tests"
        options={testOptions}
        value={testIds}
        onChange={(ids) => setIds('test_ids', ids)}
        loading={tests.isPending}
        error={tests.error ? `Could not load tests: ${tests.error.message}` : fieldError(errors, 'test_ids')}
        emptyText="No individual tests yet."
      />
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
