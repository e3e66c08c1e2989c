import { z } from 'zod';
import { isoDate, optionalText, pageQuery, pagedShape, requiredText, rupeeAmount, strictNumber } from './common.js';

/**
 * Equipment: Machine Integration (/machines), Instruments (/instruments), Calibration
 * Management (/calibration) and Maintenance Management (/maintenance), document 001 sections 3-5.
 * See docs/decisions.md, "Equipment, calibration and maintenance".
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

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const blankToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
const optionalDate = (label: string) => z.preprocess(blankToNull, isoDate(label).nullable().optional());
const limit = (label: string, min: number, max: number) =>
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
const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );

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

// ---- Calibration and maintenance ----

const intervalDays = z.preprocess(
  blankToNull,
  strictNumber(
    z
      .number({ error: 'Interval must be a number of days' })
      .int('Interval must be a whole number of days')
      .min(1, 'Interval must be at least 1 day')
      .max(3660, 'Interval must be at most 3660 days'),
  )
    .nullable()
    .optional(),
);

const serviceTypeOf = (kind: ServiceKind) => {
  const types = kind === 'calibration' ? CALIBRATION_TYPES : MAINTENANCE_TYPES;
  return z.enum(types, { error: `Type must be one of ${types.join(', ')}` });
};

function serviceCreate(kind: ServiceKind) {
  return z.object({
    equipment_id: id('equipment_id'),
    type: serviceTypeOf(kind),
    /** May be in the past (records brought over from paper): then it is overdue at once. */
    due_date: isoDate('Due date'),
    interval_days: intervalDays,
    description: optionalText(2000, 'Description'),
  });
}

function serviceUpdate(kind: ServiceKind) {
  return z.object({
    type: serviceTypeOf(kind).optional(),
    due_date: isoDate('Due date').optional(),
    interval_days: intervalDays,
    description: optionalText(2000, 'Description'),
    /** scheduled, in_progress or cancelled; completing is its own route. overdue (computed) means no change. */
    status: z.preprocess(
      (v) => (v === 'overdue' || v === 'completed' ? undefined : v),
      z
        .enum(['scheduled', 'in_progress', 'cancelled'], {
          error: 'Status must be scheduled, in_progress or cancelled (record the work to complete it)',
        })
        .optional(),
    ),
  });
}

const performedAt = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .union([isoDate('Performed at'), z.iso.datetime({ offset: true })], {
      error: 'Performed at must be a date (YYYY-MM-DD) or a date and time (ISO-8601)',
    })
    .optional(),
);

export const calibrationCreateSchema = serviceCreate('calibration');
export type CalibrationCreate = z.infer<typeof calibrationCreateSchema>;
export const calibrationUpdateSchema = serviceUpdate('calibration');
export type CalibrationUpdate = z.infer<typeof calibrationUpdateSchema>;
export const maintenanceCreateSchema = serviceCreate('maintenance');
export type MaintenanceCreate = z.infer<typeof maintenanceCreateSchema>;
export const maintenanceUpdateSchema = serviceUpdate('maintenance');
export type MaintenanceUpdate = z.infer<typeof maintenanceUpdateSchema>;

export const calibrationCompleteSchema = z.object({
  performed_by: requiredText('Performed by', 120),
  /** When the work was done; now if left out. A date alone is that day in the lab. Not in the future. */
  performed_at: performedAt,
  /** Accuracy found, percent. */
  accuracy: z.preprocess(
    blankToNull,
    strictNumber(
      z
        .number({ error: 'Accuracy must be a number' })
        .refine(Number.isFinite, 'Accuracy must be a number')
        .refine((n) => n >= 0 && n <= 100, 'Accuracy must be from 0 to 100 (percent)'),
    )
      .nullable()
      .optional(),
  ),
  description: optionalText(2000, 'Description'),
});
export type CalibrationComplete = z.infer<typeof calibrationCompleteSchema>;

export const maintenanceCompleteSchema = z.object({
  performed_by: requiredText('Performed by', 120),
  performed_at: performedAt,
  cost: z.preprocess(blankToNull, rupeeAmount('Cost').nullable().optional()),
  description: optionalText(2000, 'Description'),
});
export type MaintenanceComplete = z.infer<typeof maintenanceCompleteSchema>;
export type ServiceComplete = CalibrationComplete & { cost?: number | null };

export const serviceListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(50),
  search: z.string().trim().max(100).optional(),
  status: z.preprocess(
    blankToUndefined,
    z
      .enum([...SERVICE_STATUSES, 'upcoming'], {
        error: `status must be one of ${SERVICE_STATUSES.join(', ')}, upcoming or all`,
      })
      .optional(),
  ),
  type: z.preprocess(blankToUndefined, z.string().trim().max(40).optional()),
  equipment_id: z.preprocess(blankToUndefined, id('equipment_id').optional()),
});
export type ServiceListQuery = z.infer<typeof serviceListQuery>;

const serviceFields = {
  id: z.number(),
  equipment_id: z.number(),
  equipment_name: z.string(),
  equipment_kind: z.enum(EQUIPMENT_KINDS),
  serial_number: z.string(),
  type: z.string(),
  status: z.enum(SERVICE_STATUSES),
  due_date: z.string(),
  interval_days: z.number().nullable(),
  /** Open and due within UPCOMING_DAYS (today included). */
  upcoming: z.boolean(),
  /** Days past due (open records before today), else 0. */
  days_overdue: z.number(),
  performed_by: z.string().nullable(),
  performed_at: z.string().nullable(),
  description: z.string().nullable(),
  next_due: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const calibrationSchema = z.object({
  ...serviceFields,
  accuracy: z.number().nullable(),
  certificate: z
    .object({ file_name: z.string(), content_type: z.string(), size: z.number(), uploaded_at: z.string() })
    .nullable(),
});
export type Calibration = z.infer<typeof calibrationSchema>;

export const maintenanceSchema = z.object({ ...serviceFields, cost: z.number().nullable() });
export type Maintenance = z.infer<typeof maintenanceSchema>;

export const calibrationPageSchema = z.object({ calibrations: z.array(calibrationSchema), ...pagedShape });
export const maintenancePageSchema = z.object({ maintenance: z.array(maintenanceSchema), ...pagedShape });

export const serviceSummarySchema = z.object({
  total: z.number(),
  scheduled: z.number(),
  in_progress: z.number(),
  completed: z.number(),
  cancelled: z.number(),
  overdue: z.number(),
  upcoming: z.number(),
  /** Calibration: completed records with a certificate. Maintenance: 0. */
  certificates: z.number(),
  /** Maintenance: cost of the work recorded this month (rupees). Calibration: 0. */
  cost_this_month: z.number(),
});
export type ServiceSummary = z.infer<typeof serviceSummarySchema>;

export const certificateUploadSchema = z.object({
  file_name: requiredText('File name', 200),
  /** The file's bytes, base64. */
  content_base64: z
    .string({ error: 'content_base64 is required (the file as base64)' })
    .min(1, 'content_base64 is required (the file as base64)')
    .regex(/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/, 'content_base64 must be base64'),
});
export type CertificateUpload = z.infer<typeof certificateUploadSchema>;

export const MAINTENANCE_REPORTS = ['monthly', 'equipment', 'technician'] as const;
export type MaintenanceReportKind = (typeof MAINTENANCE_REPORTS)[number];
export const MAINTENANCE_REPORT_LABELS: Record<MaintenanceReportKind, string> = {
  monthly: 'Monthly',
  equipment: 'Equipment',
  technician: 'Technician',
};

export const maintenanceReportParams = z.object({
  report: z.enum(MAINTENANCE_REPORTS, { error: 'report must be monthly, equipment or technician' }),
});
export const maintenanceReportQuery = z.object({
  /** Lab calendar days, inclusive, on the due date. Default: the last 12 months. */
  from: z.preprocess(blankToUndefined, isoDate('from').optional()),
  to: z.preprocess(blankToUndefined, isoDate('to').optional()),
  download: z.enum(['0', '1'], { error: 'download must be 0 or 1' }).optional(),
});
export type MaintenanceReportQuery = z.infer<typeof maintenanceReportQuery>;

export const maintenanceReportRowSchema = z.object({
  /** 2026-11, an equipment id, or a technician's name. */
  key: z.string(),
  label: z.string(),
  records: z.number(),
  completed: z.number(),
  open: z.number(),
  overdue: z.number(),
  cancelled: z.number(),
  /** Rupees. */
  cost: z.number(),
});
export const maintenanceReportSchema = z.object({
  report: z.enum(MAINTENANCE_REPORTS),
  from: z.string(),
  to: z.string(),
  rows: z.array(maintenanceReportRowSchema),
  totals: maintenanceReportRowSchema,
});
export type MaintenanceReport = z.infer<typeof maintenanceReportSchema>;

export const equipmentIdField = z.preprocess(blankToNull, id('equipment_id').nullable().optional());
