import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { Button, Dialog, FormField, Input, InvitationLink, Select } from '@/components';
import { ApiError } from '@/lib/api';
import { applyServerErrors } from '@/lib/forms';
import { useCreateTenantMutation } from '../api';
import { labAddress } from './labAddress';

type FormIn = z.input<typeof tenantCreateSchema>;
type FormOut = z.output<typeof tenantCreateSchema>;

const FIELDS = [
  'name',
  'domain',
  'plan',
  'admin_email',
  'admin_first_name',
  'admin_last_name',
  'phone',
  'address',
  'timezone',
] as const;

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
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(tenantCreateSchema),
    defaultValues: EMPTY,
    mode: 'onBlur',
  });
  const { errors } = form.formState;

  /** Closing forgets the form and the link shown: the next opening starts afresh. */
  const close = () => {
    form.reset(EMPTY);
    setDone(null);
    setAdvanced(false);
    onOpenChange(false);
  };

  const onSubmit = form.handleSubmit((v) => {
    create.mutate(v, {
      onSuccess: (r) => setDone(r),
      onError: (err) => {
        const placed = applyServerErrors(err, form.setError, (p) =>
          (FIELDS as readonly string[]).includes(p) ? (p as Path<FormIn>) : undefined,
        );
        if (err instanceof ApiError && err.code === 'DOMAIN_TAKEN') form.setError('domain', { message: err.message });
        if (
          placed > 0 &&
          ['admin_first_name', 'admin_last_name', 'phone', 'address', 'timezone'].some(
            (f) => f in form.formState.errors,
          )
        )
          setAdvanced(true);
      },
    });
  });

  if (done) {
    return (
      <Dialog
        open={open}
        onOpenChange={(o) => !o && close()}
        size="lg"
        title={`Tenant created: ${done.tenant.name}`}
        description="The lab is pending until its admin opens the link below and sets a password; it then becomes active."
        footer={<Button onClick={close}>Done</Button>}
      >
        <InvitationLink
          path={done.invitation.path}
          email={done.invitation.email}
          expiresAt={done.invitation.expires_at}
          labAddress={labAddress(done.tenant.domain)}
        />
      </Dialog>
    );
  }

  const busy = create.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !busy && !o && close()}
      size="lg"
      title="Tenant Setup Wizard"
      description="A new lab on this server, with its own patients, staff and settings. Its admin gets a one-time link to set a password."
      footer={
        <>
          <Button variant="outline" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form="tenant-wizard-form" loading={busy} loadingText="Creating...">
            Create Tenant
          </Button>
        </>
      }
    >
      <form
        id="tenant-wizard-form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        className="grid items-start gap-4 sm:grid-cols-2"
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
        <FormField
          label="Admin Email"
          required
          error={errors.admin_email?.message}
          hint="The lab's first administrator."
        >
          <Input type="email" autoComplete="off" {...form.register('admin_email')} />
        </FormField>
        <div className="sm:col-span-2">
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-expanded={advanced}
            onClick={() => setAdvanced((a) => !a)}
          >
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
      </form>
    </Dialog>
  );
}
