import { useState } from 'react';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import type { User } from '@shared/schemas/users';
import { FormDialog, FormField, Textarea, type RowAction } from '@/components';
import { fieldNamed, serverErrors } from '@/lib/forms';
import { fullName, useCurrentUser } from '@/lib/session';
import { useSuspendUserMutation, useUnsuspendUserMutation } from '../api';

/**
 * The Suspend and Lift suspension row actions of a users table, and the dialog Suspend opens (the
 * caller draws `dialog`). `manageable`: the rows this user may change. Nobody suspends themselves
 * or the superadmin.
 */
export function useSuspendActions(manageable: (u: User) => boolean) {
  const me = useCurrentUser();
  const unsuspend = useUnsuspendUserMutation();
  const [suspending, setSuspending] = useState<User | null>(null);
  const suspend: RowAction<User> = {
    label: (u) => `Suspend ${fullName(u)}`,
    icon: <ShieldOff />,
    destructive: true,
    onClick: setSuspending,
    hidden: (u) => u.status === 'suspended' || u.role === 'superadmin' || u.id === me.id || !manageable(u),
  };
  const lift: RowAction<User> = {
    label: (u) => `Lift suspension of ${fullName(u)}`,
    icon: <ShieldCheck />,
    onClick: (u) => unsuspend.mutate(u),
    hidden: (u) => u.status !== 'suspended' || !manageable(u),
    disabled: () => unsuspend.isPending,
  };
  return { suspend, lift, dialog: <SuspendDialog user={suspending} onClose={() => setSuspending(null)} /> };
}

/** Suspends one account (POST /api/users/:id/suspend): signed out at once, no sign-in until lifted. */
export function SuspendDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  // A fresh form (empty reason) for each user.
  return user ? <SuspendUser key={user.id} user={user} onClose={onClose} /> : null;
}

function SuspendUser({ user, onClose }: { user: User; onClose: () => void }) {
  const suspend = useSuspendUserMutation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = () =>
    suspend.mutate(
      { user, reason },
      {
        onSuccess: onClose,
        onError: (err) => {
          const { fields, form } = serverErrors(err, fieldNamed(['reason'] as const));
          setError(fields.reason ?? form);
        },
      },
    );

  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      size="sm"
      title="Suspend User"
      description={`Suspend ${fullName(user)} (${user.email})? They are signed out at once and cannot sign in until the suspension is lifted.`}
      busy={suspend.isPending}
      onCancel={onClose}
      onSubmit={submit}
      submitVariant="destructive"
      submitLabel="Suspend"
      busyLabel="Suspending..."
    >
      <FormField label="Reason" error={error} hint="Optional; kept with the account and in the audit trail.">
        <Textarea rows={2} maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
      </FormField>
    </FormDialog>
  );
}
