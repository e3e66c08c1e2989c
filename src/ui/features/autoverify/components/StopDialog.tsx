import type { z } from 'zod';
import { stopInputSchema } from '@shared/schemas/autoverify';
import type { CatalogueTest } from '@shared/schemas/catalogue-items';
import { FormDialog, FormField, Select, Textarea } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useStopMutation } from '../api';

type FormIn = z.input<typeof stopInputSchema>;
const FIELDS = ['test_id', 'reason'] as const;

function defaults(scope: 'lab' | 'test' | null): FormIn {
  return scope === 'test' ? { test_id: '', reason: '' } : { reason: '' };
}

export interface StopDialogProps {
  /** 'lab': the lab-wide stop; 'test': one test's; null: closed. */
  scope: 'lab' | 'test' | null;
  onOpenChange: (open: boolean) => void;
  tests: CatalogueTest[];
  /** Tests already stopped, not offered again. */
  stoppedTestIds: number[];
}

/** Stop autoverification for the lab or one test: effective on the very next result, said before it is done. */
export function StopDialog({ scope, onOpenChange, tests, stoppedTestIds }: StopDialogProps) {
  const stop = useStopMutation();
  const form = useDialogForm(stopInputSchema, scope !== null, scope, defaults);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((body) =>
    stop.mutate(body, {
      onSuccess: () => onOpenChange(false),
      onError: (e) => applyServerErrors(e, form.setError, fieldNamed(FIELDS), { ALREADY_STOPPED: 'reason' }),
    }),
  );
  const lab = scope === 'lab';
  return (
    <FormDialog
      open={scope !== null}
      onOpenChange={onOpenChange}
      title={lab ? 'Stop autoverification for the lab' : 'Stop autoverification for a test'}
      description={
        lab
          ? 'From the next result on, every result waits for a person to verify it. Nothing already released changes. The stop stays until someone with approval rights resumes.'
          : 'From the next result of this test on, each waits for a person to verify it; other tests go on as before. Nothing already released changes.'
      }
      busy={stop.isPending}
      form={{ id: 'autoverify-stop-form', onSubmit, columns: 1 }}
      submitLabel={lab ? 'Stop for the Lab' : 'Stop for the Test'}
      busyLabel="Stopping..."
      submitVariant="destructive"
      error={formError(form)}
    >
      {!lab && (
        <FormField label="Test" required error={errors.test_id?.message}>
          <Select
            placeholder="Select test"
            options={tests
              .filter((t) => !stoppedTestIds.includes(t.id))
              .map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }))}
            {...form.register('test_id')}
          />
        </FormField>
      )}
      <FormField label="Reason" required error={errors.reason?.message} hint="Shown on every result held by this stop.">
        <Textarea rows={2} placeholder="e.g. Reagent lot under investigation" {...form.register('reason')} />
      </FormField>
    </FormDialog>
  );
}
