import { z } from 'zod';
import { isoDate, optionalText, pageQuery, pagedShape, requiredText, rupeeAmount, strictNumber } from './common.js';
import {
  blankToNull,
  blankToUndefined,
  CALIBRATION_TYPES,
  EQUIPMENT_KINDS,
  id,
  MAINTENANCE_TYPES,
  SERVICE_STATUSES,
  type ServiceKind,
} from './equipment-fields.js';

/** Calibration and maintenance of the lab's equipment: the records, their lists, cards, certificates and reports. */

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
