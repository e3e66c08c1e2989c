import { equipmentOptionLabel, useEntryEquipment } from '@/lib/equipment';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { FormField } from './FormField';
import { Select } from './Input';

/**
 * "Machine" on result entry and QC runs: which analyser produced the values (optional). Offered to
 * users who may see equipment; the list is the lab's machines and analytical instruments not offline.
 * A machine past its calibration is still offered (the run happened on it): the server's warning
 * is shown after saving and kept on the record.
 */
export function MachineSelect({
  value,
  onChange,
  hint,
  className,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  hint?: string;
  className?: string;
}) {
  const me = useCurrentUser();
  const allowed = can(me, 'view_equipment');
  const list = useEntryEquipment(allowed);
  if (!allowed) return null;
  const items = list.data ?? [];
  const chosen = items.find((e) => e.id === value);
  const warn = chosen && (chosen.calibration_overdue || chosen.status !== 'operational');
  return (
    <FormField
      label="Machine"
      className={className}
      hint={
        list.isError
          ? 'The machines could not be loaded; the result can be saved without one.'
          : warn
            ? `${chosen.name} is ${chosen.calibration_overdue ? 'past its calibration due date' : `marked ${chosen.status}`}: values entered on it carry a warning.`
            : (hint ??
              (items.length || list.isPending ? undefined : 'No machines are registered (Machine Integration).'))
      }
    >
      <Select
        value={value === null ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        placeholder={list.isPending ? 'Loading machines...' : 'Not recorded'}
        options={items.map((e) => ({ value: String(e.id), label: equipmentOptionLabel(e) }))}
      />
    </FormField>
  );
}
