import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import type { CatalogueProfile } from '@shared/schemas/catalogue';
import { formatMoney } from '@/lib/format';
import { useCatalogueList, useSaveItemMutation } from '../api';
import { amountText, profileFormSchema, withBasePrice, type ProfileFormIn } from '../forms';
import { applyServerErrors, topField } from '@/lib/forms';
import { CommonFields, DescriptionField, fieldError } from './CommonFields';
import { ItemFormDialog } from './ItemFormDialog';
import { ItemPicker, type PickerOption } from './ItemPicker';
import { IncludedTotal } from './IncludedTotal';

type FormOut = z.output<typeof profileFormSchema>;

const FIELDS = ['name', 'code', 'category', 'price', 'base_price', 'status', 'description', 'test_ids'] as const;

function defaults(p: CatalogueProfile | null): ProfileFormIn {
  return {
    name: p?.name ?? '',
    code: p?.code ?? '',
    category: p?.category ?? '',
    price: amountText(p?.price),
    base_price: amountText(p?.base_price),
    status: p?.status === 'inactive' ? 'inactive' : 'active',
    description: p?.description ?? '',
    test_ids: p?.test_ids ?? [],
  };
}

export interface ProfileFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  profile: CatalogueProfile | null;
  categories: readonly string[];
}

/** Add / Edit Test Profile: a set of tests with its own price; saves through /api/test-profiles. */
export function ProfileFormDialog({ open, onOpenChange, profile, categories }: ProfileFormDialogProps) {
  const save = useSaveItemMutation('profile');
  const tests = useCatalogueList('test', {}, { enabled: open });
  const form = useForm<ProfileFormIn, unknown, FormOut>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: defaults(profile),
    mode: 'onBlur',
  });

  useEffect(() => {
    if (open) form.reset(defaults(profile));
  }, [open, profile, form]);

  const testOptions = useMemo<PickerOption[] | undefined>(
    () =>
      tests.data?.map((t) => ({
        id: t.id,
        name: t.name,
        code: t.code,
        status: t.status,
        hint: formatMoney(Math.round(t.price * 100)),
      })),
    [tests.data],
  );

  const testIds = (useWatch({ control: form.control, name: 'test_ids' }) ?? []).map(Number);
  const price = useWatch({ control: form.control, name: 'price' });

  const onSubmit = form.handleSubmit((body) =>
    save.mutate(
      { id: profile?.id ?? null, body: withBasePrice(body) },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyServerErrors(err, form.setError, topField(FIELDS), { CODE_TAKEN: 'code' }),
      },
    ),
  );

  const formId = profile ? 'edit-profile-form' : 'add-profile-form';
  return (
    <ItemFormDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={save.isPending}
      editing={Boolean(profile)}
      formId={formId}
      size="lg"
      title={profile ? `Edit Profile: ${profile.name}` : 'Add Test Profile'}
      description="A group of tests billed together at the profile's own price."
      onSubmit={onSubmit}
    >
      <CommonFields
        form={form}
        categories={categories}
        namePlaceholder="e.g. Lipid Profile"
        codePlaceholder="e.g. LIPID"
      />
      <DescriptionField form={form} placeholder="What the profile covers..." />
      <div className="sm:col-span-2">
        <ItemPicker
          label="Tests"
          options={testOptions}
          value={testIds}
          onChange={(ids) =>
            form.setValue('test_ids', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
          }
          loading={tests.isPending}
          error={
            tests.error ? `Could not load tests: ${tests.error.message}` : fieldError(form.formState.errors, 'test_ids')
          }
          emptyText="No individual tests yet: add tests on the Individual Tests screen first."
        />
        <IncludedTotal ids={testIds} items={tests.data} price={price} />
      </div>
    </ItemFormDialog>
  );
}
