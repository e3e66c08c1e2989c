import { z } from 'zod';
import { optionalText, pageQuery, pagedShape, requiredText } from './common.js';
import {
  blankToNull,
  blankToUndefined,
  EQUIPMENT_KINDS,
  EQUIPMENT_SET_STATUSES,
  EQUIPMENT_STATUSES,
  id,
  INSTRUMENT_TYPES,
  limit,
  optionalDate,
  type EquipmentKind,
} from './equipment-fields.js';

/**
 * Equipment: Machine Integration (/machines), Instruments (/instruments), Calibration
 * Management (/calibration) and Maintenance Management (/maintenance), document 001 sections 3-5.
 * The equipment and its readings here; the statuses and kinds: equipment-fields.ts; calibration
 * and maintenance: equipment-services.ts (both re-exported). See docs/decisions.md, "Equipment,
 * calibration and maintenance".
 */
export {
  CALIBRATION_TYPES,
  CERTIFICATE_MAX_BYTES,
  CERTIFICATE_TYPES,
  EQUIPMENT_KINDS,
  EQUIPMENT_SET_STATUSES,
  EQUIPMENT_STATUS_LABELS,
  EQUIPMENT_STATUSES,
  INSTRUMENT_TYPES,
  MAINTENANCE_TYPES,
  PERFORMANCE_WINDOW_DAYS,
  SERVICE_KINDS,
  SERVICE_SET_STATUSES,
  SERVICE_STATUS_LABELS,
  SERVICE_STATUSES,
  UPCOMING_DAYS,
  type EquipmentKind,
  type EquipmentSetStatus,
  type EquipmentStatus,
  type ServiceKind,
  type ServiceStatus,
} from './equipment-fields.js';
export * from './equipment-services.js';

const equipmentFields = {
  name: requiredText('Name', 120),
  model: optionalText(120, 'Model'),
  serial_number: requiredText('Serial number', 80),
  type: optionalText(80, 'Type'),
  location: optionalText(120, 'Location'),
  installed_on: optionalDate('Installed on'),
  supplier: optionalText(120, 'Supplier'),
  warranty_end: optionalDate('Warranty end'),
  min_temperature: limit('Minimum temperature', -100, 200),
  max_temperature: limit('Maximum temperature', -100, 200),
  min_humidity: limit('Minimum humidity', 0, 100),
  max_humidity: limit('Maximum humidity', 0, 100),
  notes: optionalText(1000, 'Notes'),
};

type LimitPair = {
  min_temperature?: number | null;
  max_temperature?: number | null;
  min_humidity?: number | null;
  max_humidity?: number | null;
};

/** A minimum above its maximum is refused, naming the maximum. */
export function checkLimits(v: LimitPair, ctx: z.RefinementCtx): void {
  if (v.min_temperature != null && v.max_temperature != null && v.min_temperature > v.max_temperature)
    ctx.addIssue({
      code: 'custom',
      path: ['max_temperature'],
      message: 'Maximum temperature must not be below the minimum',
    });
  if (v.min_humidity != null && v.max_humidity != null && v.min_humidity > v.max_humidity)
    ctx.addIssue({ code: 'custom', path: ['max_humidity'], message: 'Maximum humidity must not be below the minimum' });
}

const setStatus = z.enum(EQUIPMENT_SET_STATUSES, {
  error: `Status must be one of ${EQUIPMENT_SET_STATUSES.join(', ')}`,
});

/** The create body's fields without the cross-field rules (forms reuse them). */
export const equipmentCreateFields = z.object({
  kind: z.enum(EQUIPMENT_KINDS, { error: 'Kind must be machine or instrument' }),
  ...equipmentFields,
  status: setStatus.default('operational'),
});

function checkInstrumentType(v: { kind?: EquipmentKind; type?: string | null }, ctx: z.RefinementCtx): void {
  if (v.kind === 'instrument' && v.type != null && !(INSTRUMENT_TYPES as readonly string[]).includes(v.type))
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `Instrument type must be one of ${INSTRUMENT_TYPES.join(', ')}`,
    });
}

export const equipmentCreateSchema = equipmentCreateFields.superRefine((v, ctx) => {
  checkLimits(v, ctx);
  checkInstrumentType(v, ctx);
});
export type EquipmentCreate = z.infer<typeof equipmentCreateSchema>;

/**
 * A change: the fields given. The kind stays as registered. `status` may echo what GET answered:
 * calibration_due is computed, so it means "no change" here.
 */
export const equipmentUpdateSchema = z
  .object({
    ...equipmentFields,
    name: equipmentFields.name.optional(),
    serial_number: equipmentFields.serial_number.optional(),
    status: z.preprocess((v) => (v === 'calibration_due' ? undefined : v), setStatus.optional()),
    /** Why the status changed (kept in the status history). */
    status_reason: optionalText(500, 'Reason'),
  })
  .superRefine(checkLimits);
export type EquipmentUpdate = z.infer<typeof equipmentUpdateSchema>;

export const equipmentStatusChangeSchema = z.object({
  status: setStatus,
  reason: optionalText(500, 'Reason'),
});
export type EquipmentStatusChange = z.infer<typeof equipmentStatusChangeSchema>;

export const equipmentListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(50),
  search: z.string().trim().max(100).optional(),
  kind: z.preprocess(
    blankToUndefined,
    z.enum(EQUIPMENT_KINDS, { error: 'kind must be machine or instrument' }).optional(),
  ),
  status: z.preprocess(
    blankToUndefined,
    z.enum(EQUIPMENT_STATUSES, { error: `status must be one of ${EQUIPMENT_STATUSES.join(', ')} or all` }).optional(),
  ),
  location: z.preprocess(blankToUndefined, z.string().trim().max(120).optional()),
  type: z.preprocess(blankToUndefined, z.string().trim().max(80).optional()),
});
export type EquipmentListQuery = z.infer<typeof equipmentListQuery>;

export const equipmentSchema = z.object({
  id: z.number(),
  kind: z.enum(EQUIPMENT_KINDS),
  name: z.string(),
  model: z.string().nullable(),
  serial_number: z.string(),
  type: z.string().nullable(),
  location: z.string().nullable(),
  /** Shown status: calibration_due for an operational instrument whose calibration is past due. */
  status: z.enum(EQUIPMENT_STATUSES),
  /** What staff set (operational, maintenance, error, offline). */
  set_status: z.enum(EQUIPMENT_SET_STATUSES),
  installed_on: z.string().nullable(),
  supplier: z.string().nullable(),
  warranty_end: z.string().nullable(),
  min_temperature: z.number().nullable(),
  max_temperature: z.number().nullable(),
  min_humidity: z.number().nullable(),
  max_humidity: z.number().nullable(),
  notes: z.string().nullable(),
  /** The last completed calibration's day, and the earliest open one's due date. */
  calibration_date: z.string().nullable(),
  next_calibration: z.string().nullable(),
  calibration_overdue: z.boolean(),
  last_maintenance: z.string().nullable(),
  next_maintenance: z.string().nullable(),
  maintenance_overdue: z.boolean(),
  /** The latest reading (null when none was logged). */
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  reading_at: z.string().nullable(),
  reading_out_of_range: z.boolean(),
  /** Percent of the window in status operational (status history); null before any time has passed. */
  uptime: z.number().nullable(),
  /** Results and QC runs naming it per operational hour in the window; null without operational time. */
  tests_per_hour: z.number().nullable(),
  /** Results and QC runs naming it in the window. */
  tests_in_window: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Equipment = z.infer<typeof equipmentSchema>;

export const equipmentPageSchema = z.object({ equipment: z.array(equipmentSchema), ...pagedShape });
export type EquipmentPage = z.infer<typeof equipmentPageSchema>;

export const equipmentSummaryQuery = z.object({
  kind: equipmentListQuery.shape.kind,
});

export const equipmentSummarySchema = z.object({
  total: z.number(),
  by_status: z.record(z.enum(EQUIPMENT_STATUSES), z.number()),
  /** Average uptime of the equipment that has one (percent), null when none has. */
  average_uptime: z.number().nullable(),
  /** Results and QC runs naming any of this equipment in the window. */
  tests_in_window: z.number(),
  window_days: z.number(),
  calibration_overdue: z.number(),
  maintenance_overdue: z.number(),
  maintenance_upcoming: z.number(),
  readings_out_of_range: z.number(),
  locations: z.array(z.string()),
  types: z.array(z.string()),
});
export type EquipmentSummary = z.infer<typeof equipmentSummarySchema>;

export const statusHistoryEntrySchema = z.object({
  id: z.number(),
  status: z.string(),
  previous_status: z.string().nullable(),
  reason: z.string().nullable(),
  changed_by_name: z.string().nullable(),
  changed_at: z.string(),
});
export type StatusHistoryEntry = z.infer<typeof statusHistoryEntrySchema>;

export const readingCreateSchema = z
  .object({
    temperature: limit('Temperature', -100, 200),
    humidity: limit('Humidity', 0, 100),
    /** When it was read; now if left out. ISO-8601 with zone. */
    recorded_at: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.iso.datetime({ offset: true, error: 'recorded_at must be a date and time (ISO-8601)' }).optional(),
    ),
    notes: optionalText(500, 'Notes'),
  })
  .superRefine((v, ctx) => {
    if (v.temperature == null && v.humidity == null)
      ctx.addIssue({ code: 'custom', path: ['temperature'], message: 'Enter a temperature or a humidity' });
  });
export type ReadingCreate = z.infer<typeof readingCreateSchema>;

export const readingSchema = z.object({
  id: z.number(),
  equipment_id: z.number(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  out_of_range: z.boolean(),
  notes: z.string().nullable(),
  recorded_by_name: z.string().nullable(),
  recorded_at: z.string(),
});
export type Reading = z.infer<typeof readingSchema>;

export const equipmentIdField = z.preprocess(blankToNull, id('equipment_id').nullable().optional());
