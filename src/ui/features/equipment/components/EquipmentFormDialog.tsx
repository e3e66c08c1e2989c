import { useMemo } from 'react';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import {
  EQUIPMENT_SET_STATUSES,
  EQUIPMENT_STATUS_LABELS,
  INSTRUMENT_TYPES,
  equipmentCreateSchema,
  type Equipment,
  type EquipmentKind,
} from '@shared/schemas/equipment';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { fieldNamed, formError } from '@/lib/forms';
import { dialogSave } from '@/lib/dialogSave';
import { useDialogForm } from '@/lib/dialogForm';
import { schemaFields } from '@/lib/schemaFields';
import { useSaveEquipmentMutation } from '../api';

type FormIn = z.input<typeof equipmentCreateSchema>;

/** The fields a 400 can name: the body's, but kind, which the dialog sets and never shows. */
const FIELDS = schemaFields(equipmentCreateSchema).filter((f) => f !== 'kind');

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

function defaults({ kind, equipment: e }: { kind: EquipmentKind; equipment: Equipment | null }): DefaultValues<FormIn> {
  return {
    kind,
    name: e?.name ?? '',
    model: text(e?.model),
    serial_number: e?.serial_number ?? '',
    type: text(e?.type),
    location: text(e?.location),
    status: e?.set_status ?? 'operational',
    installed_on: text(e?.installed_on),
    supplier: text(e?.supplier),
    warranty_end: text(e?.warranty_end),
    min_temperature: text(e?.min_temperature),
    max_temperature: text(e?.max_temperature),
    min_humidity: text(e?.min_humidity),
    max_humidity: text(e?.max_humidity),
    notes: text(e?.notes),
  };
}

export interface EquipmentFormDialogProps {
  kind: EquipmentKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: Add; else Edit. */
  equipment: Equipment | null;
}

/** Add Machine / Add Instrument and Edit: POST /api/equipment, PUT /api/equipment/:id; the server's 400s show under their fields. */
export function EquipmentFormDialog({ kind, open, onOpenChange, equipment }: EquipmentFormDialogProps) {
  const save = useSaveEquipmentMutation();
  // The kind and the row together are what each opening starts again from.
  const subject = useMemo(() => ({ kind, equipment }), [kind, equipment]);
  const form = useDialogForm(equipmentCreateSchema, open, subject, defaults);
  const { errors } = form.formState;

  const noun = kind === 'machine' ? 'Machine' : 'Instrument';
  const onSubmit = form.handleSubmit((v) => {
    const { kind: _k, ...fields } = v;
    save.mutate(
      { id: equipment?.id ?? null, body: equipment ? fields : v },
      dialogSave(form, onOpenChange, fieldNamed(FIELDS), { SERIAL_TAKEN: 'serial_number' }),
    );
  });
  const formId = equipment ? 'edit-equipment-form' : 'add-equipment-form';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={equipment ? `Edit ${noun}: ${equipment.name}` : `Add ${noun}`}
      description={
        kind === 'instrument'
          ? 'Set temperature and humidity limits to have readings outside them flagged and the lab notified.'
          : 'An analyser or other machine. Results and QC runs entered on it count towards its tests per hour.'
      }
      busy={save.isPending}
      form={{ id: formId, onSubmit }}
      submitLabel={equipment ? 'Save Changes' : `Add ${noun}`}
      error={formError(form)}
    >
      <FormField label="Name" required error={errors.name?.message}>
        <Input autoComplete="off" {...form.register('name')} />
      </FormField>
      <FormField label="Serial Number" required error={errors.serial_number?.message} hint="Unique in the lab.">
        <Input autoComplete="off" {...form.register('serial_number')} />
      </FormField>
      <FormField label="Model" error={errors.model?.message}>
        <Input autoComplete="off" {...form.register('model')} />
      </FormField>
      <FormField label="Type" error={errors.type?.message}>
        {kind === 'instrument' ? (
          <Select
            placeholder="Select type"
            options={INSTRUMENT_TYPES.map((t) => ({ value: t, label: t }))}
            {...form.register('type')}
          />
        ) : (
          <Input placeholder="e.g. Chemistry Analyzer" {...form.register('type')} />
        )}
      </FormField>
      <FormField label="Location" error={errors.location?.message}>
        <Input placeholder="e.g. Biochemistry" {...form.register('location')} />
      </FormField>
      <FormField label="Status" required error={errors.status?.message}>
        <Select
          options={EQUIPMENT_SET_STATUSES.map((s) => ({ value: s, label: EQUIPMENT_STATUS_LABELS[s] }))}
          {...form.register('status')}
        />
      </FormField>
      <FormField label="Installed On" error={errors.installed_on?.message}>
        <Input type="date" {...form.register('installed_on')} />
      </FormField>
      <FormField label="Warranty End" error={errors.warranty_end?.message}>
        <Input type="date" {...form.register('warranty_end')} />
      </FormField>
      <FormField label="Supplier" error={errors.supplier?.message} className="sm:col-span-2">
        <Input {...form.register('supplier')} />
      </FormField>
      <FormField label="Min Temperature (°C)" error={errors.min_temperature?.message}>
        <Input type="number" inputMode="decimal" step="0.1" {...form.register('min_temperature')} />
      </FormField>
      <FormField label="Max Temperature (°C)" error={errors.max_temperature?.message}>
        <Input type="number" inputMode="decimal" step="0.1" {...form.register('max_temperature')} />
      </FormField>
      <FormField label="Min Humidity (%)" error={errors.min_humidity?.message}>
        <Input type="number" inputMode="decimal" step="0.1" {...form.register('min_humidity')} />
      </FormField>
      <FormField label="Max Humidity (%)" error={errors.max_humidity?.message}>
        <Input type="number" inputMode="decimal" step="0.1" {...form.register('max_humidity')} />
      </FormField>
      <FormField label="Notes" error={errors.notes?.message} className="sm:col-span-2">
        <Textarea rows={2} {...form.register('notes')} />
      </FormField>
    </FormDialog>
  );
}
