import type { Selectable } from 'kysely';
import type { EquipmentTable } from './tables.js';
import type { ReadingRow } from './repository.js';
import type { ServiceRow } from './service-repository.js';
import {
  UPCOMING_DAYS,
  type Calibration,
  type Equipment,
  type EquipmentKind,
  type EquipmentSetStatus,
  type EquipmentStatus,
  type Maintenance,
  type Reading,
  type ServiceStatus,
} from '../../shared/schemas/equipment.js';
import { addDays } from '../../shared/time.js';

export type EquipmentRow = Selectable<EquipmentTable>;

export interface ServiceDates {
  calibration_date: string | null;
  next_calibration: string | null;
  last_maintenance: string | null;
  next_maintenance: string | null;
}

export interface Performance {
  uptime: number | null;
  tests_per_hour: number | null;
  tests_in_window: number;
}

const num = (v: number | null) => (v === null || v === undefined ? null : Number(v));

/** The shown status: an operational instrument whose calibration is past due is calibration_due. */
export function shownStatus(kind: string, setStatus: string, calibrationOverdue: boolean): EquipmentStatus {
  if (kind === 'instrument' && setStatus === 'operational' && calibrationOverdue) return 'calibration_due';
  return setStatus as EquipmentStatus;
}

export function toEquipment(
  r: EquipmentRow,
  today: string,
  dates: ServiceDates | undefined,
  reading: ReadingRow | undefined,
  perf: Performance,
): Equipment {
  const nextCal = dates?.next_calibration ?? null;
  const nextMaint = dates?.next_maintenance ?? null;
  const calibrationOverdue = nextCal !== null && nextCal < today;
  return {
    id: r.id,
    kind: r.kind as EquipmentKind,
    name: r.name,
    model: r.model,
    serial_number: r.serial_number,
    type: r.type,
    location: r.location,
    status: shownStatus(r.kind, r.status, calibrationOverdue),
    set_status: r.status as EquipmentSetStatus,
    installed_on: r.installed_on,
    supplier: r.supplier,
    warranty_end: r.warranty_end,
    min_temperature: num(r.min_temperature),
    max_temperature: num(r.max_temperature),
    min_humidity: num(r.min_humidity),
    max_humidity: num(r.max_humidity),
    notes: r.notes,
    calibration_date: dates?.calibration_date ?? null,
    next_calibration: nextCal,
    calibration_overdue: calibrationOverdue,
    last_maintenance: dates?.last_maintenance ?? null,
    next_maintenance: nextMaint,
    maintenance_overdue: nextMaint !== null && nextMaint < today,
    temperature: reading ? num(reading.temperature) : null,
    humidity: reading ? num(reading.humidity) : null,
    reading_at: reading?.recorded_at ?? null,
    reading_out_of_range: reading ? Number(reading.out_of_range) === 1 : false,
    uptime: perf.uptime,
    tests_per_hour: perf.tests_per_hour,
    tests_in_window: perf.tests_in_window,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the audit trail keeps of an equipment: its own fields. */
export function equipmentAuditValues(r: EquipmentRow): Record<string, unknown> {
  const { organization_id: _o, created_at: _c, updated_at: _u, archived_at: _a, ...rest } = r;
  return rest;
}

export function toReading(r: ReadingRow): Reading {
  return {
    id: r.id,
    equipment_id: r.equipment_id,
    temperature: num(r.temperature),
    humidity: num(r.humidity),
    out_of_range: Number(r.out_of_range) === 1,
    notes: r.notes,
    recorded_by_name: r.recorded_by_name,
    recorded_at: r.recorded_at,
  };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function serviceBase(r: ServiceRow, today: string) {
  const open = r.set_status === 'scheduled' || r.set_status === 'in_progress';
  return {
    id: r.id,
    equipment_id: r.equipment_id,
    equipment_name: r.equipment_name,
    equipment_kind: r.equipment_kind as EquipmentKind,
    serial_number: r.serial_number,
    type: r.type,
    status: r.status as ServiceStatus,
    due_date: r.due_date,
    interval_days: num(r.interval_days),
    upcoming: open && r.due_date >= today && r.due_date <= addDays(today, UPCOMING_DAYS),
    days_overdue: open && r.due_date < today ? daysBetween(r.due_date, today) : 0,
    performed_by: r.performed_by,
    performed_at: r.performed_at,
    description: r.description,
    next_due: r.next_due,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toCalibration(r: ServiceRow, today: string): Calibration {
  return {
    ...serviceBase(r, today),
    accuracy: num(r.accuracy),
    certificate:
      r.certificate_id !== null && r.certificate_name !== null
        ? {
            file_name: r.certificate_name,
            content_type: r.certificate_type ?? 'application/octet-stream',
            size: Number(r.certificate_size ?? 0),
            uploaded_at: r.certificate_uploaded_at ?? '',
          }
        : null,
  };
}

export function toMaintenance(r: ServiceRow, today: string): Maintenance {
  return { ...serviceBase(r, today), cost: r.cost_paise === null ? null : Number(r.cost_paise) / 100 };
}

/** What the audit trail keeps of a calibration or maintenance record. */
export function serviceAuditValues(r: ServiceRow): Record<string, unknown> {
  return {
    equipment_id: r.equipment_id,
    type: r.type,
    status: r.set_status,
    due_date: r.due_date,
    interval_days: r.interval_days,
    performed_by: r.performed_by,
    performed_at: r.performed_at,
    accuracy: r.accuracy,
    cost_paise: r.cost_paise,
    description: r.description,
    next_due: r.next_due,
    certificate_id: r.certificate_id,
  };
}
