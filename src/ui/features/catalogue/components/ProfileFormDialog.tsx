import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import type { CatalogueProfile } from '@shared/schemas/catalogue';
import { useCatalogueList } from '../api';
import { COMMON_FIELDS, commonDefaults, profileFormSchema, withBasePrice, type ProfileFormIn } from '../forms';
import { topField } from '@/lib/forms';
import { CommonFields, DescriptionField, fieldError } from './CommonFields';
import { ItemFormDialog, useItemForm } from './ItemFormDialog';
import { ItemPicker, pickerOption } from './ItemPicker';
import { IncludedTotal } from './IncludedTotal';

const FIELDS = [...COMMON_FIELDS, 'test_ids'] as const;

function defaults(p: CatalogueProfile | null): ProfileFormIn {
  return {
    ...commonDefaults(p),
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
  const tests = useCatalogueList('test', {}, { enabled: open });
  const { form, dialog } = useItemForm('profile', {
    schema: profileFormSchema,
    open,
    onOpenChange,
    row: profile,
    defaults,
    fieldFor: topField(FIELDS),
    body: withBasePrice,
  });
  const testOptions = useMemo(() => tests.data?.map((t) => pickerOption(t)), [tests.data]);

  const testIds = (useWatch({ control: form.control, name: 'test_ids' }) ?? []).map(Number);
  const price = useWatch({ control: form.control, name: 'price' });

  return (
    <ItemFormDialog
      {...dialog}
      formId={profile ? 'edit-profile-form' : 'add-profile-form'}
      size="lg"
      title={profile ? `Edit Profile: ${profile.name}` : 'Add Test Profile'}
      description="A group of tests billed together at the profile's own price."
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
