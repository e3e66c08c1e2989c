import { useState } from 'react';
import type { Invoice } from '@shared/schemas/invoices';
import { Button, Dialog, FormField, Textarea } from '@/components';
import { ApiError } from '@/lib/api';
import { useInvoiceAction } from '../api';

/** Cancelling an issued invoice: the reason is required (it goes on the credit note and the audit trail). */
export function CancelInvoiceDialog(props: { invoice: Invoice | null; onClose: () => void }) {
  return <CancelForm key={props.invoice?.id ?? 'none'} {...props} />;
}

function CancelForm({ invoice, onClose }: { invoice: Invoice | null; onClose: () => void }) {
  const act = useInvoiceAction();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    if (!invoice) return;
    if (!reason.trim()) {
      setError('A reason is required to cancel an invoice');
      return;
    }
    act.mutate(
      { id: invoice.id, kind: 'cancel', reason: reason.trim() },
      {
        onSuccess: onClose,
        onError: (e) =>
          setError(
            e instanceof ApiError ? (e.details.find((d) => d.path === 'reason')?.message ?? e.message) : undefined,
          ),
      },
    );
  };
  return (
    <Dialog
      open={invoice !== null}
      onOpenChange={(o) => !o && onClose()}
      title={`Cancel ${invoice?.invoice_number ?? 'invoice'}?`}
      description={`A credit note is issued for ${invoice?.recipient_name ?? 'the recipient'} and the invoice's bills are free to invoice again. The invoice itself is kept.`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Keep Invoice
          </Button>
          <Button variant="destructive" disabled={act.isPending} onClick={submit}>
            {act.isPending ? 'Cancelling...' : 'Cancel Invoice'}
          </Button>
        </>
      }
    >
      <FormField label="Reason" required error={error}>
        <Textarea
          value={reason}
          maxLength={300}
          rows={3}
          onChange={(e) => setReason(e.target.value)}
          onBlur={() => !reason.trim() && setError('A reason is required to cancel an invoice')}
        />
      </FormField>
    </Dialog>
  );
}
