import { z } from 'zod';
import type { Permission } from '../roles.js';
import { isoDate, pageQuery, pagedShape, requiredText } from './common.js';

/**
 * The data screens: import and export jobs (document 001, section 3), the
 * entities they move, saved column mappings. The jobs are the rows of `data_jobs`, written by the
 * CLI and the server alike.
 */

export const DATA_JOB_TYPES = ['import', 'export'] as const;
export type DataJobType = (typeof DATA_JOB_TYPES)[number];
export const DATA_JOB_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type DataJobStatus = (typeof DATA_JOB_STATUSES)[number];
export const DATA_JOB_STATUS_LABELS: Record<DataJobStatus, string> = {
  // Waiting for the lab's turn of heavy work (at most two of a lab's jobs run at once).
  pending: 'Queued',
  in_progress: 'In Progress',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
export const DATA_FORMATS = ['csv', 'xlsx', 'json'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];
/** Export formats: the entity formats, and a PDF register of bills (the spec's "Billing Data PDF"). */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'json', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const FORMAT_LABELS: Record<ExportFormat, string> = { csv: 'CSV', xlsx: 'Excel', json: 'JSON', pdf: 'PDF' };

/** The entities of import and export, in the order a lab loads them (src/core/transfer/registry.ts; a test compares). */
export const DATA_ENTITIES = [
  'users',
  'doctors',
  'tests',
  'profiles',
  'packages',
  'payers',
  'payer_prices',
  'patients',
  'bills',
  'samples',
  'results',
  'suppliers',
  'inventory',
  'equipment',
  'calibrations',
  'maintenance',
] as const;
export type DataEntity = (typeof DATA_ENTITIES)[number];
export const DATA_ENTITY_LABELS: Record<DataEntity, string> = {
  users: 'Users',
  doctors: 'Doctors',
  tests: 'Tests',
  profiles: 'Test Profiles',
  packages: 'Test Packages',
  payers: 'Payers',
  payer_prices: 'Payer Price Lists',
  patients: 'Patients',
  bills: 'Billing',
  samples: 'Samples',
  results: 'Test Results',
  suppliers: 'Suppliers',
  inventory: 'Inventory',
  equipment: 'Equipment',
  calibrations: 'Calibration Records',
  maintenance: 'Maintenance Records',
};
/** The test menu: what Test Data Import moves. */
export const CATALOGUE_ENTITIES: readonly DataEntity[] = ['tests', 'profiles', 'packages'];

/**
 * Who may move each entity: importing needs the permission that creates its records, exporting the
 * one that reads them plus export_data (records leaving the lab). The server enforces these.
 */
export const DATA_ENTITY_PERMISSIONS: Record<DataEntity, { import: Permission[]; export: Permission[] }> = {
  users: { import: ['manage_users'], export: ['view_users', 'export_data'] },
  doctors: { import: ['manage_users'], export: ['view_users', 'export_data'] },
  tests: { import: ['manage_tests'], export: ['view_tests', 'export_data'] },
  profiles: { import: ['manage_tests'], export: ['view_tests', 'export_data'] },
  packages: { import: ['manage_tests'], export: ['view_tests', 'export_data'] },
  payers: { import: ['manage_bills'], export: ['view_bills', 'export_data'] },
  payer_prices: { import: ['manage_bills'], export: ['view_bills', 'export_data'] },
  patients: { import: ['manage_patients'], export: ['view_patients', 'export_data'] },
  bills: { import: ['manage_bills'], export: ['view_bills', 'export_data'] },
  samples: { import: ['manage_samples'], export: ['view_samples', 'export_data'] },
  results: { import: ['update_results', 'verify_results'], export: ['view_results', 'export_data'] },
  suppliers: { import: ['manage_inventory'], export: ['view_inventory', 'export_data'] },
  inventory: { import: ['manage_inventory'], export: ['view_inventory', 'export_data'] },
  equipment: { import: ['manage_lab'], export: ['view_equipment', 'export_data'] },
  calibrations: { import: ['manage_equipment'], export: ['view_equipment', 'export_data'] },
  maintenance: { import: ['manage_equipment'], export: ['view_equipment', 'export_data'] },
};

export function mayMove(perms: readonly Permission[], entity: DataEntity, type: DataJobType): boolean {
  return DATA_ENTITY_PERMISSIONS[entity][type].every((p) => perms.includes(p));
}

const blankIsAll = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
const entity = z.enum(DATA_ENTITIES, { error: `Entity must be one of ${DATA_ENTITIES.join(', ')}` });

/** One entity, or several separated by commas ("tests,profiles,packages"). */
const entityList = z.preprocess(
  (v) => (typeof v === 'string' && v !== '' && v !== 'all' ? v.split(',').map((s) => s.trim()) : undefined),
  z.array(entity).max(DATA_ENTITIES.length).optional(),
);

export const DATA_JOB_PAGE_SIZES = [10, 20, 50] as const;

export const dataJobListQuery = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  type: z.preprocess(blankIsAll, z.enum(DATA_JOB_TYPES, { error: 'type must be import or export' }).optional()),
  status: z.preprocess(
    blankIsAll,
    z.enum(DATA_JOB_STATUSES, { error: `status must be one of ${DATA_JOB_STATUSES.join(', ')}` }).optional(),
  ),
  entity: entityList,
  /** 1: also the checks (dry runs) of imports. */
  checks: z.enum(['0', '1'], { error: 'checks must be 0 or 1' }).optional(),
});
export type DataJobListQuery = z.infer<typeof dataJobListQuery>;

export const dataJobSummaryQuery = z.object({
  type: dataJobListQuery.shape.type,
  entity: entityList,
});

export const rowErrorSchema = z.object({ row: z.number().int(), column: z.string().nullable(), message: z.string() });
export type RowErrorItem = z.infer<typeof rowErrorSchema>;

/** One kind of problem across a file: its column, how many rows have it, the first rows, the first message. */
export const errorGroupSchema = z.object({
  column: z.string().nullable(),
  count: z.number().int(),
  rows: z.array(z.number().int()),
  message: z.string(),
});
export type ErrorGroupItem = z.infer<typeof errorGroupSchema>;

export const dataJobSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(DATA_JOB_TYPES),
  entity: z.string(),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(DATA_JOB_STATUSES),
  origin: z.enum(['cli', 'web']),
  dry_run: z.boolean(),
  file_name: z.string().nullable(),
  file_size: z.number().int().nullable(),
  records: z.number().int().nullable(),
  processed: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  errors: z.number().int(),
  /** Why the job failed as a whole (an unreadable file, an unknown column), or was cancelled. */
  error_message: z.string().nullable(),
  requested_by: z.string().nullable(),
  requested_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  download_count: z.number().int(),
  /** An export whose file is still kept (until expires_at). */
  downloadable: z.boolean(),
  expires_at: z.string().nullable(),
  /** Row errors are kept for View Errors. */
  has_errors: z.boolean(),
  /** A running job of this server: Cancel is offered. */
  cancellable: z.boolean(),
  /** Of a running job: share of the file read (0-100), null when unknown. */
  percent: z.number().nullable(),
});
export type DataJob = z.infer<typeof dataJobSchema>;

export const dataJobPageSchema = z.object({ jobs: z.array(dataJobSchema), ...pagedShape });
export type DataJobPage = z.infer<typeof dataJobPageSchema>;

const count = z.number().int();
export const dataJobSummarySchema = z.object({
  total: count,
  imports: count,
  exports: count,
  completed: count,
  failed: count,
  running: count,
  cancelled: count,
  /** Records stored by completed imports (new and updated). */
  records_imported: count,
  /** Records written by completed exports. */
  records_exported: count,
  /** Rows read by finished imports and checks, and how many of them had errors. */
  rows_checked: count,
  row_errors: count,
  bytes: count,
  downloads: count,
  /** Completed share of finished jobs, 0-100; null with none finished. */
  success_rate: z.number().nullable(),
  avg_seconds: z.number().nullable(),
  by_entity: z.array(z.object({ entity: z.string(), jobs: count, records: count, failed: count })),
  by_format: z.array(z.object({ format: z.enum(EXPORT_FORMATS), jobs: count })),
  by_origin: z.object({ web: count, cli: count }),
  /** The last 14 lab days, oldest first. */
  by_day: z.array(z.object({ day: z.string(), imports: count, exports: count })),
  /** The columns most often wrong in the last 50 refused imports and checks. */
  error_columns: z.array(z.object({ column: z.string(), errors: count })),
});
export type DataJobSummary = z.infer<typeof dataJobSummarySchema>;

export const transferEntitySchema = z.object({
  name: z.enum(DATA_ENTITIES),
  label: z.string(),
  key: z.string(),
  columns: z.array(z.object({ name: z.string(), read_only: z.boolean(), required: z.boolean() })),
  can_import: z.boolean(),
  can_export: z.boolean(),
  can_update: z.boolean(),
  /** What From/To select on; null: the entity has no date. */
  date_field: z.string().nullable(),
  filters: z.array(z.string()),
});
export type TransferEntityInfo = z.infer<typeof transferEntitySchema>;

export const mappingSchema = z.record(
  z.string().max(200, 'a header is at most 200 characters'),
  z.string().max(100).nullable(),
);

export const uploadQuery = z.object({
  entity,
  file_name: z
    .string({ error: 'file_name is required' })
    .trim()
    .min(1, 'file_name is required')
    .max(255, 'file_name must be at most 255 characters'),
  update: z.enum(['0', '1'], { error: 'update must be 0 or 1' }).optional(),
});

export const importCheckSchema = z.object({
  job_id: z.number().int(),
  status: z.enum(['completed', 'failed', 'cancelled']),
  rows: count,
  /** What the import would do. */
  inserted: count,
  updated: count,
  errors: count,
  unit: z.enum(['row', 'record']),
  first_errors: z.array(rowErrorSchema),
  /** Every error counted by kind, the most frequent first. */
  error_groups: z.array(errorGroupSchema),
  message: z.string().nullable(),
  ignored_columns: z.array(z.string()),
});
export type ImportCheck = z.infer<typeof importCheckSchema>;

export const uploadParams = z.object({
  id: z.string().regex(/^[a-f0-9]{32}$/, 'id is not an upload of this server'),
});

export const uploadSchema = z.object({
  id: z.string(),
  entity: z.enum(DATA_ENTITIES),
  file_name: z.string(),
  format: z.enum(DATA_FORMATS).nullable(),
  size: count,
  /** The file's headers as written; each with the column lims reads it as (null: none). */
  headers: z.array(z.object({ header: z.string(), column: z.string().nullable() })),
});
export type Upload = z.infer<typeof uploadSchema>;

const uploadRef = {
  upload_id: z.string().regex(/^[a-f0-9]{32}$/, 'upload_id is not an upload of this server'),
  entity,
  mapping: mappingSchema.optional(),
  update: z.boolean().optional(),
};
export const importCheckBody = z.object(uploadRef);
export const importStartBody = z.object(uploadRef);
export type ImportStartBody = z.infer<typeof importStartBody>;

export const exportStartBody = z.object({
  entity,
  format: z.enum(EXPORT_FORMATS, { error: 'format must be csv, xlsx, json or pdf' }),
  from: isoDate('From').optional(),
  to: isoDate('To').optional(),
  where: z.record(z.string().max(60), z.string().max(200)).optional(),
});
export type ExportStartBody = z.infer<typeof exportStartBody>;

export const templateParams = z.object({ entity });
export const templateQuery = z.object({
  format: z.enum(DATA_FORMATS, { error: 'format must be csv, xlsx or json' }).default('csv'),
});

export const dataMappingSchema = z.object({
  id: z.number().int(),
  entity: z.enum(DATA_ENTITIES),
  name: z.string(),
  mapping: mappingSchema,
  created_by: z.string().nullable(),
  updated_at: z.string(),
});
export type DataMapping = z.infer<typeof dataMappingSchema>;

export const dataMappingBody = z.object({
  entity,
  name: requiredText('Name', 80),
  mapping: mappingSchema.refine((m) => Object.keys(m).length > 0 && Object.keys(m).length <= 1000, {
    message: 'a mapping names 1 to 1,000 headers',
  }),
});
export type DataMappingInput = z.infer<typeof dataMappingBody>;
export const dataMappingListQuery = z.object({ entity: z.preprocess(blankIsAll, entity.optional()) });

export const jobErrorsSchema = z.object({
  job_id: z.number().int(),
  message: z.string().nullable(),
  total: count,
  unit: z.enum(['row', 'record']),
  errors: z.array(rowErrorSchema),
  /** Every error counted by kind, the most frequent first. */
  groups: z.array(errorGroupSchema),
  /** The full list is kept as a CSV (error-report download). */
  has_report: z.boolean(),
});
