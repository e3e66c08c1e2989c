import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { resultCode, resultRejectSchema, type TestResult } from '@shared/schemas/results';
import { Button, Dialog, FormField, Textarea } from '@/components';
import { useRejectResultMutation } from '../api';

type FormIn = z.input<typeof resultRejectSchema>;
type FormOut = z.output<typeof resultRejectSchema>;

/** Reject with a reason: the result goes back to the technician (the queue's "rejected"). */
export function RejectResultDialog({
  result,
  onOpenChange,
}: {
  result: TestResult;
  onOpenChange: (open: boolean) => void;
}) {
  const reject = useRejectResultMutation();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(resultRejectSchema),
    defaultValues: { reason: '' },
    mode: 'onBlur',
  });
  const onSubmit = form.handleSubmit(({ reason }) =>
    reject.mutate({ id: result.id!, reason }, { onSuccess: () => onOpenChange(false) }),
  );
  return (
    <Dialog
      open
      onOpenChange={(o) => !reject.isPending && onOpenChange(o)}
      title={`Reject Result ${resultCode(result.id)}`}
      description={`${result.test_name}: ${result.result_value ?? ''} ${result.unit ?? ''} · ${result.first_name} ${result.last_name} · ${result.sample_number}`}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={reject.isPending}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            type="submit"
            form="reject-result"
            loading={reject.isPending}
            loadingText="Rejecting..."
          >
            Reject Result
          </Button>
        </>
      }
    >
      <form id="reject-result" onSubmit={(e) => void onSubmit(e)} noValidate>
        <FormField
          label="Reason"
          required
          error={form.formState.errors.reason?.message}
          hint="The technician sees it when re-entering the result"
        >
          <Textarea rows={3} autoFocus {...form.register('reason')} />
        </FormField>
      </form>
    </Dialog>
  );
}
