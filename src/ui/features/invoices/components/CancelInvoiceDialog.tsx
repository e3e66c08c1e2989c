import { useState } from 'react';
import type { Invoice } from '@shared/schemas/invoices';
import { FormDialog, FormField, Textarea } from '@/components';
import { fieldNamed, serverErrors } from '@/lib/forms';
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
        onError: (e) => {
          const { fields, form } = serverErrors(e, fieldNamed(['reason'] as const));
          setError(fields.reason ?? form);
        },
      },
    );
  };
  return (
    <FormDialog
      open={invoice !== null}
      onOpenChange={(o) => !o && onClose()}
      title={`Cancel ${invoice?.invoice_number ?? 'invoice'}?`}
      description={`A credit note is issued for ${invoice?.recipient_name ?? 'the recipient'} and the invoice's bills are free to invoice again. The invoice itself is kept.`}
      busy={act.isPending}
      onCancel={onClose}
      cancelLabel="Keep Invoice"
      onSubmit={submit}
      submitVariant="destructive"
      submitLabel="Cancel Invoice"
      busyLabel="Cancelling..."
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
    </FormDialog>
  );
}
