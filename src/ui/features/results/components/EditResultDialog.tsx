import { useState } from 'react';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { resultCode, resultUpdateSchema, resultValue, type TestResult } from '@shared/schemas/results';
import { FormDialog, FormField, Input, Textarea } from '@/components';
import { useDialogForm } from '@/lib/dialogForm';
import { notify } from '@/lib/notify';
import { templateById } from '@shared/templates';
import { useUpdateResultMutation } from '../api';
import { StructuredPanel, type PanelDraft } from './StructuredPanel';
import { StructuredCulture, cultureDraftOf, culturePayload, type CultureDraft } from './StructuredCulture';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';

const editSchema = resultUpdateSchema.extend({ result_value: resultValue });
/** A verified result changes only with a reason (the server refuses it otherwise, and keeps the earlier value). */
const amendSchema = editSchema.refine((v) => (v.reason ?? '').length > 0, {
  path: ['reason'],
  message: 'Reason is required',
});
type FormIn = z.input<typeof editSchema>;
const FIELDS = ['result_value', 'unit', 'notes', 'reason'] as const;

function defaults(result: TestResult): DefaultValues<FormIn> {
  return { result_value: result.result_value ?? '', unit: result.unit ?? '', notes: result.notes ?? '', reason: '' };
}

/** Edit one entered result; for a verified one, the reason is asked for and the change is kept as an amendment. */
export function EditResultDialog({
  result,
  onOpenChange,
}: {
  result: TestResult;
  onOpenChange: (open: boolean) => void;
}) {
  const verified = result.status === 'verified';
  const update = useUpdateResultMutation();
  const form = useDialogForm(verified ? amendSchema : editSchema, true, result, defaults);
  const { errors } = form.formState;
  // A structured result is changed parameter by parameter; its summary is the server's.
  const template = result.structured ? templateById(result.structured.template) : null;
  const [panel, setPanel] = useState<PanelDraft>(() => ({ ...(result.structured?.values ?? {}) }));
  const [culture, setCulture] = useState<CultureDraft>(() => cultureDraftOf(result.structured?.culture ?? null, ''));

  const onSubmit = form.handleSubmit((body) =>
    update.mutate(
      {
        id: result.id!,
        body: template
          ? {
              notes: body.notes,
              reason: body.reason,
              structured: template.kind === 'panel' ? panel : culturePayload(culture),
            }
          : body,
      },
      {
        onSuccess: (r) => {
          notify.success(
            verified ? `Result ${resultCode(r.id)} amended` : `Result ${resultCode(r.id)} updated`,
            verified ? 'The earlier value is kept; the result needs verifying again.' : undefined,
          );
          onOpenChange(false);
        },
        onError: (err) => {
          applyServerErrors(err, form.setError, fieldNamed(FIELDS));
          notify.error('Failed to update result', err);
        },
      },
    ),
  );

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`${verified ? 'Amend' : 'Edit'} Result ${resultCode(result.id)}`}
      size={template ? 'xl' : undefined}
      description={`${result.test_name} · ${result.first_name} ${result.last_name} · ${result.sample_number} ${result.structured ? '' : ` · reference range ${result.normal_range ?? 'not set'}`}`}
      busy={update.isPending}
      form={{ id: 'edit-result', onSubmit, columns: 1 }}
      submitLabel={verified ? 'Save Amendment' : 'Save'}
      error={formError(form)}
    >
      {verified && (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-[13px] text-amber-950">
          This result was verified by {result.verified_by_name ?? 'a validator'}. Changing it keeps the earlier value (
          {result.result_value} {result.unit}) with your reason, and sends the result back for verification.
        </p>
      )}
      {template?.kind === 'panel' && (
        <StructuredPanel
          template={template}
          draft={panel}
          disabled={false}
          testName={result.test_name}
          onChange={setPanel}
        />
      )}
      {template?.kind === 'culture' && (
        <StructuredCulture draft={culture} disabled={false} testName={result.test_name} onChange={setCulture} />
      )}
      {!template && (
        <div className="grid grid-cols-2 gap-3">
          <FormField label="Result value" required error={errors.result_value?.message}>
            <Input {...form.register('result_value')} autoComplete="off" />
          </FormField>
          <FormField label="Unit" error={errors.unit?.message}>
            <Input {...form.register('unit')} autoComplete="off" />
          </FormField>
        </div>
      )}
      <FormField label="Notes" error={errors.notes?.message}>
        <Input {...form.register('notes')} autoComplete="off" />
      </FormField>
      {verified && (
        <FormField
          label="Reason for the change"
          required
          error={errors.reason?.message}
          hint="Printed on the report with the earlier value"
        >
          <Textarea rows={3} {...form.register('reason')} />
        </FormField>
      )}
    </FormDialog>
  );
}
