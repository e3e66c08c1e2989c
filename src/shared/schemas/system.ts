import { z } from 'zod';
import { countsSchema } from './dashboard.js';

/** The database as the debug and connection-test screens show it. */
export const sqliteDiagnosticsSchema = z.object({
  type: z.literal('SQLite'),
  file: z.string(),
  size_bytes: z.number(),
  sqlite_version: z.string(),
  journal_mode: z.string(),
  synchronous: z.string(),
  foreign_keys: z.boolean(),
  schema_version: z.number().int(),
  quick_check: z.string(),
  latency_ms: z.number(),
});

/** PostgreSQL: where (never the password), its version, and whether other servers' changes reach this one. */
export const postgresDiagnosticsSchema = z.object({
  type: z.literal('PostgreSQL'),
  server: z.string(),
  size_bytes: z.number(),
  server_version: z.string(),
  /** LISTEN for other servers' changes is connected (sessions ended elsewhere take effect here). */
  change_listener: z.boolean(),
  pool_size: z.number().int(),
  schema_version: z.number().int(),
  quick_check: z.string(),
  latency_ms: z.number(),
});

export const databaseDiagnosticsSchema = z.discriminatedUnion('type', [
  sqliteDiagnosticsSchema,
  postgresDiagnosticsSchema,
]);
export type DatabaseDiagnostics = z.infer<typeof databaseDiagnosticsSchema>;

/** GET /api/system/diagnostics (system_settings): the server, its database file and the lab's counts. */
export const diagnosticsSchema = z.object({
  server: z.object({
    version: z.string().nullable(),
    node: z.string(),
    platform: z.string(),
    uptime_seconds: z.number(),
    memory_mb: z.number(),
    demo: z.boolean(),
  }),
  database: databaseDiagnosticsSchema,
  counts: countsSchema,
});
export type Diagnostics = z.infer<typeof diagnosticsSchema>;

/** One recurring job of the server's scheduler (GET /api/system/jobs, the server's operator). */
export const jobStatusSchema = z.object({
  name: z.string(),
  description: z.string(),
  period_ms: z.number().int(),
  /** A run is under way now. */
  running: z.boolean(),
  runs: z.number().int(),
  failures: z.number().int(),
  last_run_at: z.string().nullable(),
  last_duration_ms: z.number().int().nullable(),
  last_outcome: z.enum(['ok', 'failed']).nullable(),
  /** Null while a run is under way, or while the scheduler is stopped. */
  next_run_at: z.string().nullable(),
  /** The last failure's message (first line), kept after later runs succeed. */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;

export const patientWriteCheckSchema = z.object({
  ok: z.boolean(),
  ms: z.number(),
  patient_code: z.string().nullable(),
  error: z.string().nullable(),
});
export type PatientWriteCheck = z.infer<typeof patientWriteCheckSchema>;

export const chainReportSchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  firstBrokenId: z.number().int().nullable(),
  reason: z.string().nullable(),
});
export type ChainReport = z.infer<typeof chainReportSchema>;

/** GET /api/health: no sign-in; says whether the server and its database answer. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string().nullable(),
  database: z.object({ status: z.literal('ok'), latency_ms: z.number() }),
  setup_complete: z.boolean(),
  time: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
