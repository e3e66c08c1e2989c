import type { Sample } from '@shared/schemas/samples';
import { sampleUpdateSchema } from '@shared/schemas/samples';
import { SAMPLE_PRIORITIES, type SamplePriority, type SampleType } from '@shared/samples';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { notify } from '@/lib/notify';
import { useUpdateSampleMutation } from '../api';
import { PRIORITY_CHOICES, TYPE_CHOICES, collectorName } from '../text';
import { CollectorField, LocationField, fieldErrors } from './SampleFields';
import { useFieldForm } from '@/lib/forms';
import { submitWith } from '@/lib/submitWith';

/** Usual conditions on receipt, offered as suggestions; any text up to 200 characters is kept. */
const RECEIPT_CONDITIONS = [
  'Acceptable',
  'Mildly haemolysed',
  'Grossly haemolysed',
  'Lipaemic',
  'Icteric',
  'Clotted',
  'Insufficient volume',
  'Received warm',
];

export interface EditSampleDialogProps {
  sample: Sample | null;
  onOpenChange: (open: boolean) => void;
}

/** The dialog body is keyed by sample so each opening starts from that sample's saved values. */
export function EditSampleDialog({ sample, onOpenChange }: EditSampleDialogProps) {
  return sample ? <EditForm key={sample.id} sample={sample} onOpenChange={onOpenChange} /> : null;
}

function EditForm({ sample, onOpenChange }: { sample: Sample; onOpenChange: (open: boolean) => void }) {
  const update = useUpdateSampleMutation();
  const {
    values: { type, location, notes, condition, priority, collector },
    set,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(() => ({
    type: sample.sample_type,
    location: sample.location ?? '',
    notes: sample.notes ?? '',
    condition: sample.receipt_condition ?? '',
    priority: (SAMPLE_PRIORITIES as readonly string[]).includes(sample.priority)
      ? (sample.priority as SamplePriority)
      : 'normal',
    collector: sample.collector_id ? String(sample.collector_id) : '',
  }));
  const recorded = collectorName(sample);

  const save = () => {
    const body = {
      sample_type: type as SampleType,
      collector_id: collector ? Number(collector) : null,
      location: location || null,
      notes: notes.trim() || null,
      priority,
      receipt_condition: condition.trim() || null,
    };
    const parsed = sampleUpdateSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues.map((i) => ({ path: String(i.path[0] ?? ''), message: i.message }))));
      notify.error('Failed to update sample', parsed.error.issues[0]?.message);
      return;
    }
    update.mutate({ id: sample.id, body }, { onSuccess: () => onOpenChange(false), onError: showErrors });
  };

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title="Edit Sample"
      description={`Sample ${sample.sample_id} · ${sample.first_name} ${sample.last_name}`}
      size="md"
      busy={update.isPending}
      form={{ id: 'edit-sample-form', onSubmit: submitWith(save), columns: 1 }}
      submitLabel="Save Changes"
      error={errors.form}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Sample Type" required error={errors.sample_type}>
          <Select value={type} onChange={(e) => set('type', e.target.value)} options={TYPE_CHOICES} />
        </FormField>
        <FormField label="Priority" error={errors.priority}>
          <Select
            value={priority}
            onChange={(e) => set('priority', e.target.value as SamplePriority)}
            options={PRIORITY_CHOICES}
          />
        </FormField>
      </div>
      <CollectorField
        value={collector}
        onChange={(v) => set('collector', v)}
        error={errors.collector_id}
        current={sample.collector_id && recorded ? { value: String(sample.collector_id), label: recorded } : undefined}
      />
      <LocationField value={location} onChange={(v) => set('location', v)} error={errors.location} />
      <FormField
        label="Condition on Receipt"
        hint="Printed on the report (NABL 112): how the specimen arrived"
        error={errors.receipt_condition}
      >
        {(control) => (
          <>
            <Input
              {...control}
              value={condition}
              onChange={(e) => set('condition', e.target.value)}
              maxLength={200}
              list="receipt-conditions"
              placeholder="e.g. Acceptable"
              autoComplete="off"
            />
            <datalist id="receipt-conditions">
              {RECEIPT_CONDITIONS.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </>
        )}
      </FormField>
      <FormField label="Notes" error={errors.notes}>
        <Textarea value={notes} onChange={(e) => set('notes', e.target.value)} rows={3} />
      </FormField>
      {sample.barcode && type !== sample.sample_type && (
        <p className="rounded-md bg-amber-50 p-2 text-[13px] text-amber-900">
          The barcode {sample.barcode} stays as it is: it was issued at collection and is on the tube.
        </p>
      )}
      <p className="text-xs text-slate-600">
        The status changes through Process, Complete and Reject, so each move is kept in the chain of custody.
      </p>
    </FormDialog>
  );
}
