import { useState } from 'react';
import type { Calibration, Maintenance, ServiceKind } from '@shared/schemas/equipment';
import { Button, Dialog, FormField, Input, Textarea } from '@/components';
import { useCompleteMutation } from '../api';
import { fieldErrors } from '@/lib/forms';

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
  const [v, setV] = useState({
    performed_by: '',
    performed_at: '',
    accuracy: '',
    cost: '',
    description: record.description ?? '',
  });
  const errors = complete.error ? fieldErrors(complete.error) : {};
  const err = (path: string) => errors[path];
  return (
    <Dialog
      open
      onOpenChange={(o) => !complete.isPending && onOpenChange(o)}
      title={`Record ${kind === 'calibration' ? 'Calibration' : 'Maintenance'}: ${record.equipment_name}`}
      description={
        record.interval_days
          ? `Every ${record.interval_days} days: the next one is scheduled from the day the work was done.`
          : 'No interval is set: no next record is scheduled.'
      }
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={complete.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="complete-form" loading={complete.isPending} loadingText="Saving...">
            Record Work
          </Button>
        </>
      }
    >
      <form
        id="complete-form"
        noValidate
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
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
            { onSuccess: () => onOpenChange(false) },
          );
        }}
      >
        <FormField label="Performed By" required error={err('performed_by')}>
          <Input
            value={v.performed_by}
            onChange={(e) => setV({ ...v, performed_by: e.target.value })}
            placeholder="Name (and company)"
          />
        </FormField>
        <FormField label="Performed On" error={err('performed_at')} hint="Today if left empty.">
          <Input type="date" value={v.performed_at} onChange={(e) => setV({ ...v, performed_at: e.target.value })} />
        </FormField>
        {kind === 'calibration' ? (
          <FormField label="Accuracy (%)" error={err('accuracy')}>
            <Input
              type="number"
              inputMode="decimal"
              step="0.01"
              value={v.accuracy}
              onChange={(e) => setV({ ...v, accuracy: e.target.value })}
            />
          </FormField>
        ) : (
          <FormField label="Cost (₹)" error={err('cost')}>
            <Input
              type="number"
              inputMode="decimal"
              step="0.01"
              min={0}
              value={v.cost}
              onChange={(e) => setV({ ...v, cost: e.target.value })}
            />
          </FormField>
        )}
        <FormField label="Description" error={err('description')} className="sm:col-span-2">
          <Textarea rows={2} value={v.description} onChange={(e) => setV({ ...v, description: e.target.value })} />
        </FormField>
      </form>
    </Dialog>
  );
}
