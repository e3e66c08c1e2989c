import { z } from 'zod';
import { isoDate, strictNumber } from './common.js';

/**
 * The kinds, statuses and limits the equipment schemas share (equipment.ts, equipment-services.ts),
 * and their field rules.
 */
export const EQUIPMENT_KINDS = ['machine', 'instrument'] as const;
export type EquipmentKind = (typeof EQUIPMENT_KINDS)[number];

/** What staff set. */
export const EQUIPMENT_SET_STATUSES = ['operational', 'maintenance', 'error', 'offline'] as const;
export type EquipmentSetStatus = (typeof EQUIPMENT_SET_STATUSES)[number];
/** What the screens show: an operational instrument past its calibration due date is calibration_due. */
export const EQUIPMENT_STATUSES = ['operational', 'calibration_due', 'maintenance', 'error', 'offline'] as const;
export type EquipmentStatus = (typeof EQUIPMENT_STATUSES)[number];
export const EQUIPMENT_STATUS_LABELS: Record<EquipmentStatus, string> = {
  operational: 'Operational',
  calibration_due: 'Calibration Due',
  maintenance: 'Maintenance',
  error: 'Error',
  offline: 'Offline',
};

export const INSTRUMENT_TYPES = ['Imaging', 'Analytical', 'Measurement', 'Environmental'] as const;

export const CALIBRATION_TYPES = ['Routine', 'Annual', 'Emergency', 'Preventive'] as const;
export const MAINTENANCE_TYPES = ['Preventive', 'Corrective', 'Emergency', 'Predictive'] as const;
export const SERVICE_KINDS = ['calibration', 'maintenance'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];
/** Stored statuses; overdue is computed (an open record whose due date is before the lab's today). */
export const SERVICE_SET_STATUSES = ['scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export const SERVICE_STATUSES = ['completed', 'overdue', 'scheduled', 'in_progress', 'cancelled'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const SERVICE_STATUS_LABELS: Record<ServiceStatus, string> = {
  completed: 'Completed',
  overdue: 'Overdue',
  scheduled: 'Scheduled',
  in_progress: 'In Progress',
  cancelled: 'Cancelled',
};
/** An open record due within this many days (today included) is upcoming. */
export const UPCOMING_DAYS = 30;
/** Uptime and tests per hour are measured over this many days (or since registration, if later). */
export const PERFORMANCE_WINDOW_DAYS = 7;

/** Certificates: PDF, PNG, JPEG or WebP, checked by their first bytes; at most this size. */
export const CERTIFICATE_MAX_BYTES = 5 * 1024 * 1024;
export const CERTIFICATE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;

export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
export const blankToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
export const optionalDate = (label: string) => z.preprocess(blankToNull, isoDate(label).nullable().optional());
export const limit = (label: string, min: number, max: number) =>
  z.preprocess(
    blankToNull,
    strictNumber(
      z
        .number({ error: `${label} must be a number` })
        .refine(Number.isFinite, `${label} must be a number`)
        .refine((n) => n >= min && n <= max, `${label} must be from ${min} to ${max}`),
    )
      .nullable()
      .optional(),
  );
export const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );
