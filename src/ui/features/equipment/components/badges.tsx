import { Badge, type BadgeTone } from '@/components';
import {
  EQUIPMENT_STATUS_LABELS,
  SERVICE_STATUS_LABELS,
  type EquipmentStatus,
  type ServiceStatus,
} from '@shared/schemas/equipment';

/** Green working, amber needs attention, red broken or overdue, grey off or cancelled, blue planned. */
const EQUIPMENT_TONES: Record<EquipmentStatus, BadgeTone> = {
  operational: 'green',
  calibration_due: 'red',
  maintenance: 'amber',
  error: 'red',
  offline: 'grey',
};

const SERVICE_TONES: Record<ServiceStatus, BadgeTone> = {
  completed: 'green',
  overdue: 'red',
  scheduled: 'blue',
  in_progress: 'amber',
  cancelled: 'grey',
};

export function EquipmentStatusBadge({ status }: { status: EquipmentStatus }) {
  return <Badge tone={EQUIPMENT_TONES[status]}>{EQUIPMENT_STATUS_LABELS[status]}</Badge>;
}

export function ServiceStatusBadge({ status }: { status: ServiceStatus }) {
  return <Badge tone={SERVICE_TONES[status]}>{SERVICE_STATUS_LABELS[status]}</Badge>;
}
