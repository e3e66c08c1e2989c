import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { KeyRound } from 'lucide-react';
import { passwordSchema } from '@shared/schemas/users';
import { Button, ErrorPanel, FormField, Input, LinkButton, LoadingState, SignedOutCard } from '@/components';
import { ApiError } from '@/lib/api';
import { applyServerErrors } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { useAcceptInvitationMutation, useInvitationPreview } from './api';

const formSchema = z
  .object({ password: passwordSchema, confirm_password: z.string() })
  .refine((v) => v.password === v.confirm_password, { path: ['confirm_password'], message: 'Passwords do not match' });
type Form = z.infer<typeof formSchema>;

/** The token from the address (/invitation#<token>), read once when the page opens. */
function tokenFromAddress(): string {
  return decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
}

/**
 * /invitation#<token>: a new account (a lab's first admin, or staff invited by their admin) sets its
 * password, checked against the lab's password policy, and is signed in.
 */
export default function InvitationPage() {
  const [token] = useState(tokenFromAddress);
  const preview = useInvitationPreview(token);
  return (
    <SignedOutCard title="Set Your Password">
      {token === '' ? (
        <ErrorPanel
          className="mt-4"
          title="No invitation in this link"
          error="Open the whole link you were sent (it ends with a long code after #)."
        />
      ) : preview.isPending ? (
        <LoadingState text="Checking your invitation..." />
      ) : preview.isError ? (
        <>
          <ErrorPanel className="mt-4" title="This invitation cannot be used" error={preview.error} />
          <LinkButton to="/login" variant="outline" className="mt-4 w-full">
            Go to Sign In
          </LinkButton>
        </>
      ) : (
        <AcceptForm token={token} labName={preview.data.lab_name} email={preview.data.email} />
      )}
    </SignedOutCard>
  );
}

function AcceptForm({ token, labName, email }: { token: string; labName: string; email: string }) {
  const accept = useAcceptInvitationMutation();
  const navigate = useNavigate();
  const form = useForm<Form>({
    resolver: zodResolver(formSchema),
    defaultValues: { password: '', confirm_password: '' },
    mode: 'onBlur',
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) => {
    accept.mutate(
      { token, password: v.password },
      {
        // replace: the address with the used token leaves the history.
        // Without a session (the lab requires two-factor sign-in) the sign-in form comes next.
        onSuccess: ({ signed_in }) => void navigate(signed_in ? '/home' : '/login', { replace: true }),
        onError: (err) => {
          if (applyServerErrors(err, form.setError, (p) => (p === 'password' ? 'password' : undefined)) > 0) return;
          notify.error('Could not set your password', err instanceof ApiError ? err.message : err);
        },
      },
    );
  });

  return (
    <>
      <p className="mt-1 mb-5 text-slate-600">
        You have been invited to <strong className="text-slate-900">{labName}</strong> as{' '}
        <strong className="break-all text-slate-900">{email}</strong>. Choose a password to sign in.
      </p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4" aria-label="Set your password">
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <FormField
          label="New Password"
          required
          error={errors.password?.message}
          hint="The lab's password policy applies (by default at least 10 characters, with a letter and a digit)."
        >
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <FormField label="Confirm Password" required error={errors.confirm_password?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirm_password')} />
        </FormField>
        <Button type="submit" size="lg" loading={accept.isPending} loadingText="Setting password..." className="w-full">
          <KeyRound />
          Set Password and Sign In
        </Button>
      </form>
    </>
  );
}
