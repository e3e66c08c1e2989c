import { resultCode, resultRejectSchema, type TestResult } from '@shared/schemas/results';
import { FormDialog, FormField, Textarea } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useRejectResultMutation } from '../api';

const noReason = () => ({ reason: '' });

/** Reject with a reason: the result goes back to the technician (the queue's "rejected"). */
export function RejectResultDialog({
  result,
  onOpenChange,
}: {
  result: TestResult;
  onOpenChange: (open: boolean) => void;
}) {
  const reject = useRejectResultMutation();
  const form = useDialogForm(resultRejectSchema, true, result, noReason);
  const onSubmit = form.handleSubmit(({ reason }) =>
    reject.mutate(
      { id: result.id!, reason },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyServerErrors(err, form.setError, fieldNamed(['reason'] as const)),
      },
    ),
  );
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Reject Result ${resultCode(result.id)}`}
      description={`${result.test_name}: ${result.result_value ?? ''} ${result.unit ?? ''} · ${result.first_name} ${result.last_name} · ${result.sample_number}`}
      size="sm"
      busy={reject.isPending}
      form={{ id: 'reject-result', onSubmit, columns: 1 }}
      submitLabel="Reject Result"
      busyLabel="Rejecting..."
      submitVariant="destructive"
      error={formError(form)}
    >
      <FormField
        label="Reason"
        required
        error={form.formState.errors.reason?.message}
        hint="The technician sees it when re-entering the result"
      >
        <Textarea rows={3} autoFocus {...form.register('reason')} />
      </FormField>
    </FormDialog>
  );
}
