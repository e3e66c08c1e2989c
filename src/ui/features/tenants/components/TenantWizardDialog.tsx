import { useState } from 'react';
import type { z } from 'zod';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { TIMEZONES } from '@shared/constants';
import {
  TENANT_PLANS,
  TENANT_PLAN_LABELS,
  tenantCreateSchema,
  type IssuedInvitation,
  type Tenant,
} from '@shared/schemas/tenants';
import { Button, FormDialog, FormField, Input, Select } from '@/components';
import { InvitationLinkDialog } from '@/components/InvitationLinkDialog';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useCreateTenantMutation } from '../api';
import { labAddress } from './labAddress';
import { schemaFields } from '@/lib/schemaFields';

type FormIn = z.input<typeof tenantCreateSchema>;

const EMPTY: FormIn = {
  name: '',
  domain: '',
  plan: 'basic',
  admin_email: '',
  admin_first_name: '',
  admin_last_name: '',
  phone: '',
  address: '',
  timezone: 'Asia/Kolkata',
};
const empty = () => EMPTY;

/** The fields under Advanced Setup: a refusal of one of them opens the section. */
const ADVANCED: readonly string[] = ['admin_first_name', 'admin_last_name', 'phone', 'address', 'timezone'];

export interface TenantWizardDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The spec's Tenant Setup Wizard: Tenant Name, Domain, Plan, Admin Email, with Create Tenant and
 * Advanced Setup (the admin's name, the lab's phone, address and time zone). Once created, the
 * dialog shows the admin's one-time invitation link to copy.
 */
export function TenantWizardDialog({ open, onOpenChange }: TenantWizardDialogProps) {
  const create = useCreateTenantMutation();
  const [advanced, setAdvanced] = useState(false);
  const [done, setDone] = useState<{ tenant: Tenant; invitation: IssuedInvitation } | null>(null);
  const form = useDialogForm(tenantCreateSchema, open, null, empty);
  const { errors } = form.formState;

  /** Closing forgets the link shown and the open section; the form starts afresh at the next opening. */
  const close = () => {
    setDone(null);
    setAdvanced(false);
    onOpenChange(false);
  };

  const onSubmit = form.handleSubmit((v) => {
    create.mutate(v, {
      onSuccess: (r) => setDone(r),
      onError: (err) => {
        const placed = applyServerErrors(err, form.setError, fieldNamed(schemaFields(tenantCreateSchema)), {
          DOMAIN_TAKEN: 'domain',
        });
        if (placed > 0 && ADVANCED.some((f) => f in form.formState.errors)) setAdvanced(true);
      },
    });
  });

  if (done) {
    return (
      <InvitationLinkDialog
        invitation={open ? done.invitation : null}
        title={`Tenant created: ${done.tenant.name}`}
        description="The lab is pending until its admin opens the link below and sets a password; it then becomes active."
        labAddress={labAddress(done.tenant.domain)}
        onClose={close}
      />
    );
  }

  const busy = create.isPending;
  return (
    <FormDialog
      open={open}
      onOpenChange={(o) => !o && close()}
      size="lg"
      title="Tenant Setup Wizard"
      description="A new lab on this server, with its own patients, staff and settings. Its admin gets a one-time link to set a password."
      busy={busy}
      form={{ id: 'tenant-wizard-form', onSubmit }}
      submitLabel="Create Tenant"
      busyLabel="Creating..."
      error={formError(form)}
    >
      <FormField label="Tenant Name" required error={errors.name?.message}>
        <Input autoComplete="off" placeholder="e.g. Sunrise Diagnostics" {...form.register('name')} />
      </FormField>
      <FormField
        label="Domain"
        required
        error={errors.domain?.message}
        hint="The host name its staff open, e.g. sunrise.labs.example.com (see Several labs on one server)."
      >
        <Input
          autoComplete="off"
          spellCheck={false}
          placeholder="sunrise.labs.example.com"
          {...form.register('domain')}
        />
      </FormField>
      <FormField label="Plan" required error={errors.plan?.message}>
        <Select
          options={TENANT_PLANS.map((p) => ({ value: p, label: TENANT_PLAN_LABELS[p] }))}
          {...form.register('plan')}
        />
      </FormField>
      <FormField label="Admin Email" required error={errors.admin_email?.message} hint="The lab's first administrator.">
        <Input type="email" autoComplete="off" {...form.register('admin_email')} />
      </FormField>
      <div className="sm:col-span-2">
        <Button type="button" variant="ghost" size="sm" aria-expanded={advanced} onClick={() => setAdvanced((a) => !a)}>
          {advanced ? <ChevronUp /> : <ChevronDown />}
          Advanced Setup
        </Button>
      </div>
      {advanced && (
        <>
          <FormField label="Admin First Name" error={errors.admin_first_name?.message} hint="Default: Lab">
            <Input autoComplete="off" {...form.register('admin_first_name')} />
          </FormField>
          <FormField label="Admin Last Name" error={errors.admin_last_name?.message} hint="Default: Administrator">
            <Input autoComplete="off" {...form.register('admin_last_name')} />
          </FormField>
          <FormField label="Lab Phone" error={errors.phone?.message}>
            <Input type="tel" {...form.register('phone')} />
          </FormField>
          <FormField label="Time Zone" error={errors.timezone?.message}>
            <Select options={TIMEZONES.map((t) => ({ value: t, label: t }))} {...form.register('timezone')} />
          </FormField>
          <FormField label="Lab Address" className="sm:col-span-2" error={errors.address?.message}>
            <Input autoComplete="off" {...form.register('address')} />
          </FormField>
        </>
      )}
    </FormDialog>
  );
}
