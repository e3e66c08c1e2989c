import { useState } from 'react';
import { CALIBRATION_TYPES, MAINTENANCE_TYPES, type ServiceKind } from '@shared/schemas/equipment';
import { FormDialog, FormField, Input, Select, Textarea } from '@/components';
import { fieldErrors } from '@/lib/forms';
import { useEquipmentOptions, useScheduleMutation } from '../api';

/** Schedule Calibration / Schedule Maintenance: equipment, type, due date (a past date is overdue at once), interval. */
export function ScheduleDialog({
  kind,
  open,
  onOpenChange,
}: {
  kind: ServiceKind;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const options = useEquipmentOptions();
  const schedule = useScheduleMutation(kind);
  const types = kind === 'calibration' ? CALIBRATION_TYPES : MAINTENANCE_TYPES;
  const [v, setV] = useState({
    equipment_id: '',
    type: types[0] as string,
    due_date: '',
    interval_days: '',
    description: '',
  });
  const errors = schedule.error ? fieldErrors(schedule.error) : {};
  const err = (path: string) => errors[path];
  const label = kind === 'calibration' ? 'Calibration' : 'Maintenance';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Schedule ${label}`}
      description="A due date in the past is allowed for records brought over from paper: it is overdue at once. With an interval, recording the work schedules the next one."
      busy={schedule.isPending}
      form={{
        id: 'schedule-form',
        onSubmit: (e) => {
          e.preventDefault();
          schedule.mutate(
            {
              equipment_id: v.equipment_id,
              type: v.type as never,
              due_date: v.due_date,
              interval_days: v.interval_days === '' ? null : v.interval_days,
              description: v.description,
            },
            { onSuccess: () => onOpenChange(false) },
          );
        },
      }}
      submitLabel={`Schedule ${label}`}
      busyLabel="Scheduling..."
      error={errors.form}
    >
      <FormField label="Equipment" required error={err('equipment_id')} className="sm:col-span-2">
        <Select
          placeholder={options.isPending ? 'Loading…' : 'Select equipment'}
          value={v.equipment_id}
          onChange={(e) => setV({ ...v, equipment_id: e.target.value })}
          options={(options.data ?? []).map((o) => ({
            value: String(o.id),
            label: `${o.name} (${o.serial_number})`,
          }))}
        />
      </FormField>
      <FormField label="Type" required error={err('type')}>
        <Select
          value={v.type}
          onChange={(e) => setV({ ...v, type: e.target.value })}
          options={types.map((t) => ({ value: t, label: t }))}
        />
      </FormField>
      <FormField label="Due Date" required error={err('due_date')}>
        <Input type="date" value={v.due_date} onChange={(e) => setV({ ...v, due_date: e.target.value })} />
      </FormField>
      <FormField label="Interval (days)" error={err('interval_days')} hint="e.g. 180 for every six months">
        <Input
          type="number"
          inputMode="numeric"
          min={1}
          value={v.interval_days}
          onChange={(e) => setV({ ...v, interval_days: e.target.value })}
        />
      </FormField>
      <FormField label="Description" error={err('description')} className="sm:col-span-2">
        <Textarea rows={2} value={v.description} onChange={(e) => setV({ ...v, description: e.target.value })} />
      </FormField>
    </FormDialog>
  );
}
