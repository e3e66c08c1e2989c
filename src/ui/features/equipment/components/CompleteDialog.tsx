import type { Calibration, Maintenance, ServiceKind } from '@shared/schemas/equipment';
import { FormDialog, FormField, Input, Textarea } from '@/components';
import { useCompleteMutation } from '../api';
import { useFieldForm } from '@/lib/forms';
import { submitWith } from '@/lib/submitWith';
import { bindText } from '@/lib/bindText';

/** Record the work of a calibration (accuracy) or a maintenance (cost); the next one follows from the interval. */
export function CompleteDialog(props: {
  kind: ServiceKind;
  record: Calibration | Maintenance | null;
  onOpenChange: (o: boolean) => void;
}) {
  return props.record ? <CompleteForm key={props.record.id} {...props} record={props.record} /> : null;
}

function CompleteForm({
  kind,
  record,
  onOpenChange,
}: {
  kind: ServiceKind;
  record: Calibration | Maintenance;
  onOpenChange: (o: boolean) => void;
}) {
  const complete = useCompleteMutation(kind);
  const {
    values: v,
    set,
    errors,
    showErrors,
  } = useFieldForm(() => ({
    performed_by: '',
    performed_at: '',
    accuracy: '',
    cost: '',
    description: record.description ?? '',
  }));
  const text = bindText(v, set);

  const submit = () =>
    complete.mutate(
      {
        id: record.id,
        body: {
          performed_by: v.performed_by,
          performed_at: v.performed_at || undefined,
          accuracy: kind === 'calibration' ? (v.accuracy === '' ? null : v.accuracy) : undefined,
          cost: kind === 'maintenance' ? (v.cost === '' ? null : v.cost) : undefined,
          description: v.description,
        },
      },
      { onSuccess: () => onOpenChange(false), onError: showErrors },
    );
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Record ${kind === 'calibration' ? 'Calibration' : 'Maintenance'}: ${record.equipment_name}`}
      description={
        record.interval_days
          ? `Every ${record.interval_days} days: the next one is scheduled from the day the work was done.`
          : 'No interval is set: no next record is scheduled.'
      }
      busy={complete.isPending}
      form={{ id: 'complete-form', onSubmit: submitWith(submit) }}
      submitLabel="Record Work"
      error={errors.form}
    >
      <FormField label="Performed By" required error={errors.performed_by}>
        <Input {...text('performed_by')} placeholder="Name (and company)" />
      </FormField>
      <FormField label="Performed On" error={errors.performed_at} hint="Today if left empty.">
        <Input type="date" {...text('performed_at')} />
      </FormField>
      {kind === 'calibration' ? (
        <FormField label="Accuracy (%)" error={errors.accuracy}>
          <Input type="number" inputMode="decimal" step="0.01" {...text('accuracy')} />
        </FormField>
      ) : (
        <FormField label="Cost (₹)" error={errors.cost}>
          <Input type="number" inputMode="decimal" step="0.01" min={0} {...text('cost')} />
        </FormField>
      )}
      <FormField label="Description" error={errors.description} className="sm:col-span-2">
        <Textarea rows={2} {...text('description')} />
      </FormField>
    </FormDialog>
  );
}
