import { useState } from 'react';
import type { User } from '@shared/schemas/users';
import { FormDialog, FormField, Textarea } from '@/components';
import { fieldNamed, serverErrors } from '@/lib/forms';
import { fullName } from '@/lib/session';
import { useSuspendUserMutation } from '../api';

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
