import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { LogIn } from 'lucide-react';
import { PORTAL_PIN_LENGTH, portalLoginSchema } from '@shared/schemas/portal';
import { Button, FormField, Input } from '@/components';
import { applyServerErrors } from '@/lib/forms';
import { usePortalLoginMutation } from '../api';

type In = z.input<typeof portalLoginSchema>;
type Out = z.output<typeof portalLoginSchema>;

/** Patient sign-in (spec 2.14): Patient ID and Mobile Number, plus the PIN the lab gave them. */
export function PortalLoginForm() {
  const login = usePortalLoginMutation();
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(portalLoginSchema),
    defaultValues: { patient_id: '', mobile: '', pin: '' },
    mode: 'onBlur',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit((body) =>
    login.mutate(body, {
      onError: (err) => {
        applyServerErrors(err, form.setError, (p) => (['patient_id', 'mobile', 'pin'] as const).find((k) => k === p));
        // A failed sign-in must be typed again; the PIN is never left in the field.
        form.setValue('pin', '');
      },
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField
        label="Patient ID"
        required
        error={errors.patient_id?.message}
        hint="Printed on your bill and reports, e.g. PAT202611210001"
      >
        <Input
          autoComplete="username"
          autoCapitalize="characters"
          spellCheck={false}
          {...form.register('patient_id')}
        />
      </FormField>
      <FormField label="Mobile Number" required error={errors.mobile?.message}>
        <Input type="tel" inputMode="tel" autoComplete="tel" {...form.register('mobile')} />
      </FormField>
      <FormField
        label="PIN"
        required
        error={errors.pin?.message}
        hint={`The ${PORTAL_PIN_LENGTH}-digit portal PIN the lab gave you`}
      >
        <Input
          type="password"
          inputMode="numeric"
          autoComplete="current-password"
          maxLength={PORTAL_PIN_LENGTH}
          {...form.register('pin')}
        />
      </FormField>
      <Button type="submit" size="lg" loading={login.isPending} loadingText="Signing in..." className="mt-1 w-full">
        <LogIn />
        Sign In
      </Button>
    </form>
  );
}
