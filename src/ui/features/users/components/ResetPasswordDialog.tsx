import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { passwordResetSchema, type User } from '@shared/schemas/users';
import { FormDialog, FormField, Input, LabPasswordHint } from '@/components';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { fullName } from '@/lib/session';
import { useResetPasswordMutation } from '../api';

const schema = passwordResetSchema
  .extend({ confirm_password: z.string() })
  .refine((v) => v.confirm_password === v.password, { path: ['confirm_password'], message: 'Passwords do not match' });
type FormIn = z.input<typeof schema>;
type FormOut = z.output<typeof schema>;

/** Sets a new password (POST /api/users/:id/reset-password); the server ends the user's sessions. */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const reset = useResetPasswordMutation();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', confirm_password: '' },
    mode: 'onBlur',
  });
  const typed = useWatch({ control: form.control, name: 'password' }) ?? '';
  const { errors } = form.formState;

  useEffect(() => {
    if (user) form.reset({ password: '', confirm_password: '' });
  }, [user, form]);

  const onSubmit = form.handleSubmit((v) => {
    if (!user) return;
    reset.mutate(
      { user, password: v.password },
      {
        onSuccess: onClose,
        onError: (err) => applyServerErrors(err, form.setError, fieldNamed(['password'] as const)),
      },
    );
  });

  return (
    <FormDialog
      open={user !== null}
      onOpenChange={(o) => !o && onClose()}
      size="sm"
      title="Reset Password"
      description={
        user
          ? `Set a new password for ${fullName(user)} (${user.email}). They will be signed out everywhere.`
          : undefined
      }
      busy={reset.isPending}
      onCancel={onClose}
      form={{ id: 'reset-password-form', onSubmit, columns: 1 }}
      submitLabel="Reset Password"
      error={formError(form)}
    >
      <FormField
        label="New Password"
        required
        error={errors.password?.message}
        hint={
          <LabPasswordHint
            password={typed}
            who={user ? { email: user.email, name: `${user.first_name} ${user.last_name}` } : {}}
          />
        }
      >
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label="Confirm New Password" required error={errors.confirm_password?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirm_password')} />
      </FormField>
    </FormDialog>
  );
}
