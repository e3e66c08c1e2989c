import { useState, type FormEvent } from 'react';
import { ShieldCheck } from 'lucide-react';
import type { DiscountApproval } from '@shared/schemas/bills';
import { FormDialog, FormField, Input } from '@/components';
import { ApiError } from '@/lib/api';

/** The server's answer when a bill's discount is above the biller's limit (lab settings, per role). */
export const APPROVAL_REQUIRED = 'DISCOUNT_APPROVAL_REQUIRED';

export const needsApproval = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.code === APPROVAL_REQUIRED;

/**
 * A discount above the biller's limit: the server says by how much; a colleague who may approve it
 * (a lab manager, an admin) types their email and password here, and the bill is sent again with
 * the approval. The approver's password goes to the server with that one request and is not kept.
 */
export function useDiscountApproval() {
  const [pending, setPending] = useState<{ message: string; retry: (a: DiscountApproval) => Promise<unknown> } | null>(
    null,
  );
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setPending(null);
    setPassword('');
    setError(null);
  };

  /** When the error asks for an approval, opens the dialog (retry re-sends with it) and answers true. */
  const intercept = (err: unknown, retry: (a: DiscountApproval) => Promise<unknown>): boolean => {
    if (!needsApproval(err)) return false;
    setPending({ message: err.message, retry });
    setError(null);
    return true;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!pending) return;
    if (!email.trim() || !password) {
      setError('Enter the approver’s email and password');
      return;
    }
    setBusy(true);
    pending
      .retry({ approver_email: email.trim(), approver_password: password })
      .then(close, (err: unknown) => {
        setPassword('');
        setError(err instanceof Error ? err.message : String(err));
      })
      .finally(() => setBusy(false));
  };

  const dialog = (
    <FormDialog
      open={pending !== null}
      onOpenChange={(o) => !o && close()}
      title="Discount needs approval"
      description={pending?.message}
      busy={busy}
      form={{ id: 'discount-approval-form', onSubmit: submit, columns: 1 }}
      submitLabel={
        <>
          <ShieldCheck />
          Approve and Save
        </>
      }
      busyLabel="Approving..."
    >
      <FormField label="Approver email" required>
        <Input type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FormField>
      <FormField label="Approver password" required error={error ?? undefined}>
        <Input type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
      </FormField>
      <p className="text-[13px] text-slate-600">
        The approval is recorded in the audit trail with the bill, the discount and the approver.
      </p>
    </FormDialog>
  );

  return { intercept, dialog };
}
