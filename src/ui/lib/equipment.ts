import { useQuery } from '@tanstack/react-query';
import { equipmentApi } from '@shared/api/equipment';
import type { Equipment } from '@shared/schemas/equipment';
import { call } from './api';

/**
 * The machines a result or a QC run can name: the lab's analysers (kind machine) and
 * analytical instruments, not offline, by name. Result entry and QC both offer them; the server
 * decides the warning (calibration overdue, not operational) and keeps it on the record.
 */
export function useEntryEquipment(enabled: boolean) {
  return useQuery({
    queryKey: ['equipment', 'entry'] as const,
    queryFn: async (): Promise<Equipment[]> => {
      const [machines, instruments] = await Promise.all([
        call(equipmentApi.list, { query: { kind: 'machine', limit: 100 } }),
        call(equipmentApi.list, { query: { kind: 'instrument', type: 'Analytical', limit: 100 } }),
      ]);
      return [...machines.equipment, ...instruments.equipment]
        .filter((e) => e.status !== 'offline')
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    enabled,
    staleTime: 60_000,
  });
}

/**
 * How a machine reads in a picker: its name, what is wrong with it (if anything), serial and
 * location. The warning comes right after the name so a narrow select (a phone) still shows it.
 */
export function equipmentOptionLabel(e: Equipment): string {
  const state =
    e.status === 'calibration_due' || e.calibration_overdue
      ? ' (calibration overdue)'
      : e.status !== 'operational'
        ? ` (${e.status})`
        : '';
  return `${e.name}${state} · ${e.serial_number}${e.location ? ` · ${e.location}` : ''}`;
}
