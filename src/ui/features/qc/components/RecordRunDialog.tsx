import { useState } from 'react';
import { useWatch, type DefaultValues } from 'react-hook-form';
import { z } from 'zod';
import { qcRunCreateSchema, type QcMaterial } from '@shared/schemas/qc';
import { FormDialog, FormField, Input, MachineSelect, Select, Textarea } from '@/components';
import { formatDate, useLabFormat } from '@/lib/format';
import { useRecordQcRunMutation } from '../api';
import { expiryHint, formatQcValue, rangeText, targetText } from '../qcText';
import { RunBadge } from './RunBadge';
import { applyServerErrors, formError, topField } from '@/lib/forms';
import { useDialogForm } from '@/lib/dialogForm';

/** datetime-local gives the lab's wall-clock time without a zone; the API wants an instant. */
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const runFormSchema = qcRunCreateSchema.extend({
  material_id: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : Number(v)),
    z.number({ error: 'Control material is required' }).int().positive('Control material is required'),
  ),
  performed_at: z.preprocess((v) => {
    if (typeof v !== 'string' || v.trim() === '') return undefined;
    return LOCAL_DATETIME.test(v) ? new Date(v).toISOString() : v;
  }, qcRunCreateSchema.shape.performed_at),
});
type FormIn = z.input<typeof runFormSchema>;

function localNow(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Each opening: the given material (or none chosen), now as the time of the run. */
function defaults(material: QcMaterial | null): DefaultValues<FormIn> {
  return { material_id: material ? String(material.id) : '', value: '', performed_at: localNow(), comments: '' };
}

export interface RecordRunDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The material to record for; null lets the user pick one of `materials`. */
  material: QcMaterial | null;
  /** Choices when no material is given: the active ones. */
  materials: QcMaterial[];
}

/** Record QC Run: POST /api/qc/materials/:id/runs; the server judges the run and the toast names the verdict. */
export function RecordRunDialog({ open, onOpenChange, material, materials }: RecordRunDialogProps) {
  const lab = useLabFormat();
  const record = useRecordQcRunMutation();
  const [machine, setMachine] = useState<number | null>(null);
  const form = useDialogForm(runFormSchema, open, material, defaults);
  const { errors } = form.formState;

  const chosenId = String(useWatch({ control: form.control, name: 'material_id' }) ?? '');
  const chosen = material ?? materials.find((m) => String(m.id) === chosenId) ?? null;
  const unit = chosen?.unit ? ` ${chosen.unit}` : '';

  const onSubmit = form.handleSubmit(({ material_id, ...body }) =>
    record.mutate(
      { id: material_id, body: { ...body, equipment_id: machine ?? undefined } },
      {
        onSuccess: () => onOpenChange(false),
        onError: (e) => applyServerErrors(e, form.setError, topField(['value', 'performed_at', 'comments'] as const)),
      },
    ),
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={material ? `Record QC Run: ${material.control_id}` : 'Record QC Run'}
      description="The run is judged on saving with the Westgard rules (1-2s warning; 1-3s, 2-2s, R-4s, 4-1s, 10-x reject)."
      busy={record.isPending}
      form={{ id: 'record-qc-run-form', onSubmit, columns: 1 }}
      submitLabel="Record Run"
      error={formError(form)}
    >
      {!material && (
        <FormField label="Control Material" required error={errors.material_id?.message}>
          <Select
            placeholder={materials.length ? 'Select control material' : 'No active control materials'}
            options={materials.map((m) => ({
              value: String(m.id),
              label: `${m.control_id} · ${m.test_name}${m.level ? ` · ${m.level}` : ''} · lot ${m.lot_number}`,
            }))}
            {...form.register('material_id')}
          />
        </FormField>
      )}
      {chosen && (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-[13px] sm:grid-cols-4">
          <Fact label="Test" value={chosen.test_name} />
          <Fact label="Target" value={`${targetText(chosen)}${unit}`} />
          <Fact label="Acceptable Range" value={rangeText(chosen)} />
          <Fact label="Expiry" value={`${formatDate(chosen.expiry_date, lab)} (${expiryHint(chosen).toLowerCase()})`} />
          {chosen.last_run && (
            <div className="col-span-2 flex items-center gap-2 sm:col-span-4">
              <dt className="text-slate-600">Last run</dt>
              <dd className="flex items-center gap-2">
                {formatQcValue(chosen.last_run.value)}
                {unit}
                <RunBadge status={chosen.last_run.status} />
              </dd>
            </div>
          )}
        </dl>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={`Value${unit ? ` (${unit.trim()})` : ''}`} required error={errors.value?.message}>
          <Input type="number" inputMode="decimal" step="any" autoComplete="off" {...form.register('value')} />
        </FormField>
        <FormField label="Performed At" error={errors.performed_at?.message}>
          <Input type="datetime-local" max={localNow()} {...form.register('performed_at')} />
        </FormField>
      </div>
      <MachineSelect value={machine} onChange={setMachine} />
      <FormField label="Comments" error={errors.comments?.message}>
        <Textarea placeholder="e.g. after recalibration, new reagent pack" {...form.register('comments')} />
      </FormField>
    </FormDialog>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium break-words text-slate-900">{value}</dd>
    </div>
  );
}
