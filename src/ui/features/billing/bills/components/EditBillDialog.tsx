import { useState } from 'react';
import { z } from 'zod';
import { Ban, Trash2 } from 'lucide-react';
import { PAYMENT_METHODS } from '@shared/billing';
import type { Bill } from '@shared/schemas/bills';
import { formatMoney } from '@/lib/format';
import { Button, ConfirmDialog, FormDialog, FormField, Input, Select, Textarea, deleteMessage } from '@/components';
import { useBill, useCancelBillMutation, useDeleteBillMutation, useUpdateBillMutation } from '../api';
import { isPaymentMethod, METHOD_OPTIONS, paiseOf, patientName } from '@/lib/billText';
import { invoiceLockReason } from './billActions';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { useDialogForm } from '@/lib/dialogForm';

const editSchema = z.object({
  payment_method: z.enum(PAYMENT_METHODS, { error: 'Choose a payment method' }),
  due_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Due date is required'),
  notes: z.string().max(1000, 'Notes must be at most 1000 characters'),
});

const editDefaults = (bill: Bill | null) => ({
  payment_method: bill && isPaymentMethod(bill.payment_method) ? bill.payment_method : ('cash' as const),
  due_date: bill?.due_date ?? '',
  notes: bill?.notes ?? '',
});

export interface EditBillDialogProps {
  bill: Bill | null;
  onOpenChange: (open: boolean) => void;
  /** delete_bills (admins): may delete a bill that has no payments. */
  canDelete: boolean;
}

/**
 * Edit (manage_bills): payment method, due date, notes; Cancel Bill with a reason; Delete for admins.
 * The form is the dialog's Save; Cancel Bill and Delete are separate actions below it, each confirmed.
 */
export function EditBillDialog({ bill, onOpenChange, canDelete }: EditBillDialogProps) {
  const update = useUpdateBillMutation(bill?.id ?? 0);
  const form = useDialogForm(editSchema, bill !== null, bill, editDefaults);
  const save = form.handleSubmit((v) =>
    update.mutate(v, dialogSave(form, onOpenChange, fieldNamed(['payment_method', 'due_date', 'notes'] as const))),
  );
  const errors = form.formState.errors;
  return (
    <FormDialog
      open={bill !== null}
      onOpenChange={onOpenChange}
      title={bill ? `Edit Bill ${bill.bill_number}` : 'Edit Bill'}
      description={bill ? `${patientName(bill)} (${bill.patient_patient_id})` : undefined}
      size="lg"
      busy={update.isPending}
      onSubmit={() => void save()}
      submitLabel="Save Changes"
      cancelLabel="Close"
      error={formError(form)}
    >
      {bill && (
        <div className="grid grid-cols-1 gap-5">
          {/* Its own <form> so that Enter in a field saves, while the cancel reason below does not. */}
          <form onSubmit={save} noValidate aria-label="Bill details" className="grid gap-3">
            <div className="grid items-start gap-3 sm:grid-cols-2">
              <FormField label="Payment Method" required error={errors.payment_method?.message}>
                <Select options={METHOD_OPTIONS} {...form.register('payment_method')} />
              </FormField>
              <FormField
                label="Due Date"
                required
                error={errors.due_date?.message}
                hint="An unpaid bill becomes overdue after this date"
              >
                <Input type="date" {...form.register('due_date')} />
              </FormField>
            </div>
            <FormField label="Notes" error={errors.notes?.message}>
              <Textarea rows={3} {...form.register('notes')} />
            </FormField>
          </form>
          <CancelAndDelete key={bill.id} bill={bill} onDone={() => onOpenChange(false)} canDelete={canDelete} />
        </div>
      )}
    </FormDialog>
  );
}

function CancelAndDelete({ bill, onDone, canDelete }: { bill: Bill; onDone: () => void; canDelete: boolean }) {
  const cancel = useCancelBillMutation(bill.id);
  const remove = useDeleteBillMutation();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const paidPaise = paiseOf(bill.paid_amount);
  // The server refuses to delete a bill with any payment row, even one refunded back to zero.
  const detail = useBill(bill.id);
  const hasPayments = paidPaise > 0 || (detail.data?.payments?.length ?? 0) > 0;
  const locked = invoiceLockReason(bill);
  const askCancel = () => {
    if (!reason.trim()) {
      setReasonError('A reason is required to cancel a bill');
      return;
    }
    setReasonError(undefined);
    setConfirmCancel(true);
  };

  return (
    <>
      <section aria-labelledby="cancel-bill-title" className="rounded-lg border border-red-200 p-3">
        <h3 id="cancel-bill-title" className="text-sm font-semibold text-slate-900">
          Cancel Bill
        </h3>
        {locked ? (
          <p data-testid="cancel-locked" className="mt-1 text-sm text-slate-700">
            {locked}
          </p>
        ) : paidPaise > 0 ? (
          <p className="mt-1 text-sm text-slate-700">
            {formatMoney(paidPaise)} has been paid on this bill. Refund it from the bill details before cancelling.
          </p>
        ) : (
          <>
            <p className="mt-1 text-[13px] text-slate-600">
              A cancelled bill stays on record with its reason and takes no payment. This cannot be undone.
            </p>
            <div className="mt-2 grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
              <FormField label="Reason for cancelling" required error={reasonError}>
                <Input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={300} />
              </FormField>
              <Button variant="destructive" onClick={askCancel}>
                <Ban />
                Cancel Bill
              </Button>
            </div>
          </>
        )}
      </section>

      {canDelete &&
        !locked &&
        (hasPayments ? (
          <p className="text-[13px] text-slate-600">
            A bill with payments recorded cannot be deleted; cancel it instead once any money is refunded.
          </p>
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-2 text-[13px] text-slate-600">
            <span>Delete removes a bill entered by mistake, with nothing paid on it.</span>
            <Button variant="ghost" className="text-red-700 hover:bg-red-50" onClick={() => setConfirmDelete(true)}>
              <Trash2 />
              Delete Bill
            </Button>
          </div>
        ))}

      {/* Not ConfirmDialog: its "Cancel" button next to "Cancel Bill" would read ambiguously. */}
      <FormDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel Bill"
        description={`Are you sure you want to cancel bill ${bill.bill_number}? Reason: ${reason.trim()}`}
        size="sm"
        busy={cancel.isPending}
        cancelLabel="Keep Bill"
        submitVariant="destructive"
        submitLabel="Cancel Bill"
        busyLabel="Cancelling..."
        onSubmit={() =>
          cancel.mutate(reason.trim(), {
            onSuccess: () => {
              setConfirmCancel(false);
              onDone();
            },
            onError: () => setConfirmCancel(false),
          })
        }
      />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Bill"
        message={deleteMessage(`bill ${bill.bill_number}`)}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(bill, {
            onSuccess: () => {
              setConfirmDelete(false);
              onDone();
            },
            onError: () => setConfirmDelete(false),
          })
        }
      />
    </>
  );
}
