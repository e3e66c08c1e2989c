import type { DefaultValues } from 'react-hook-form';
import { z } from 'zod';
import { TENANT_PLANS, TENANT_PLAN_LABELS, domainSchema, type Tenant } from '@shared/schemas/tenants';
import { requiredText } from '@shared/schemas/common';
import { FormDialog, FormField, Input, Select } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useUpdateTenantMutation } from '../api';

/** The form's rules: the server's; the primary lab may have no domain (an empty field), a tenant must. */
function formSchema(isPrimary: boolean) {
  return z.object({
    name: requiredText('Tenant name', 120),
    domain: isPrimary
      ? z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), domainSchema.nullable())
      : domainSchema,
    plan: z.enum(['', ...TENANT_PLANS]),
  });
}
type FormIn = z.input<ReturnType<typeof formSchema>>;

const FIELDS = ['name', 'domain', 'plan'] as const;

function defaults(tenant: Tenant | null): DefaultValues<FormIn> {
  return { name: tenant?.name ?? '', domain: tenant?.domain ?? '', plan: tenant?.plan ?? '' };
}

export interface TenantEditDialogProps {
  tenant: Tenant | null;
  onOpenChange: (open: boolean) => void;
}

/** Name, domain and plan of a lab (PUT /api/tenants/:id); the status changes through the row's actions. */
export function TenantEditDialog({ tenant, onOpenChange }: TenantEditDialogProps) {
  const update = useUpdateTenantMutation();
  const isPrimary = tenant?.is_primary ?? false;
  const form = useDialogForm(formSchema(isPrimary), tenant !== null, tenant, defaults);
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) => {
    if (!tenant) return;
    update.mutate(
      { id: tenant.id, patch: { name: v.name, domain: v.domain, ...(v.plan ? { plan: v.plan } : {}) } },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyServerErrors(err, form.setError, fieldNamed(FIELDS), { DOMAIN_TAKEN: 'domain' }),
      },
    );
  });

  const busy = update.isPending;
  return (
    <FormDialog
      open={tenant !== null}
      onOpenChange={onOpenChange}
      title={tenant ? `Edit Tenant: ${tenant.name}` : 'Edit Tenant'}
      description="Changes are recorded in the audit trail of the server's first lab and of this lab."
      busy={busy}
      form={{ id: 'tenant-edit-form', onSubmit, columns: 1 }}
      submitLabel="Save Changes"
      error={formError(form)}
    >
      <FormField label="Tenant Name" required error={errors.name?.message}>
        <Input autoComplete="off" {...form.register('name')} />
      </FormField>
      <FormField
        label="Domain"
        required={!isPrimary}
        error={errors.domain?.message}
        hint={
          isPrimary
            ? 'Optional for the first lab: where no domain matches, sign-in goes to this lab.'
            : 'Staff signing in at this host name reach this lab only.'
        }
      >
        <Input autoComplete="off" spellCheck={false} {...form.register('domain')} />
      </FormField>
      <FormField label="Plan" error={errors.plan?.message}>
        <Select
          options={[
            ...(tenant?.plan ? [] : [{ value: '', label: 'No plan recorded' }]),
            ...TENANT_PLANS.map((p) => ({ value: p, label: TENANT_PLAN_LABELS[p] })),
          ]}
          {...form.register('plan')}
        />
      </FormField>
    </FormDialog>
  );
}
