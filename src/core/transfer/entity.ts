import type { z } from 'zod';
import type { Actor } from '../context.js';
import type { Db } from '../db/connection.js';
import type { ColumnKind } from './cells.js';
import type { ParallelExportPlan } from './parallel.js';

/**
 * One entity of `lims import` / `lims export` is one file in ./entities declaring what
 * this type says: its columns (header names are the API's field names), its natural key, how its
 * rows are read for export (in pages, organisation-scoped), which schema checks an incoming row
 * (the API's own zod schema), how references by natural key are resolved, and how rows are stored
 * (through the feature's own core functions, audited). The engine (import.ts, export.ts) does the
 * rest: files, formats, mapping, batching, the transaction, the error report and the job.
 */

export interface TransferColumn {
  /** The header: the API's field name. */
  name: string;
  /** How its cells are read and written; text unless said. */
  kind?: ColumnKind;
  /** Exported only: computed or kept by the server (age, balance); accepted and ignored on import. */
  readOnly?: boolean;
}

/** What the import of one file knows while it runs; `db` is the import's transaction (or the database in a dry run). */
export interface ImportContext {
  db: Db;
  actor: Actor;
  organizationId: number;
  timeZone: string;
  /** The lab's today (YYYY-MM-DD). */
  today: string;
  dateFormat: string;
  update: boolean;
  dryRun: boolean;
  /** The natural keys of the file's rows read so far (at finish: all of them). */
  keysInFile: { has(key: string): boolean };
  /**
   * Stores one row through a service function: a rule the service enforces (a ConflictError, a
   * ValidationError) becomes an error of that row and its writes are undone (a savepoint); answers
   * undefined then. Other failures end the import.
   */
  attempt<T>(row: number, fn: () => Promise<T>): Promise<T | undefined>;
  /** Rows an entity keeps back until every row of the file is read (finish). */
  deferred: { row: number; plan: unknown }[];
}

export type EntityError = { column: string | null; message: string };

/** The plan of a row kept in ctx.deferred: planned now, checked and stored at finish. */
export const DEFERRED = Symbol('deferred');

/** A row that passed its schema: its number in the file, the API input, and the stored record its key matched. */
export interface ValidRow<Input, Existing> {
  row: number;
  input: Input;
  existing: Existing | undefined;
}

export type PlanResult<Plan> =
  { row: number; plan: Plan } | { row: number; errors: { column: string | null; message: string }[] };

export interface WriteCounts {
  inserted: number;
  updated: number;
}

/**
 * New rows of an import built and staged before the write lock (db/staging.ts), so that the
 * import's transaction only copies them in: an entity whose imports run to the hundred thousand
 * (patients) has one. Rows it does not take (changes to stored records) are written by `write`.
 */
export interface PlanStage<Plan> {
  /** Outside the lock: stages the plans it takes and answers the others, in order. */
  add(db: Db, plans: readonly { row: number; plan: Plan }[]): Promise<{ row: number; plan: Plan }[]>;
  /** After the last add, before the import's transaction (statistics of what was staged). */
  ready(db: Db): Promise<void>;
  /** In the import's transaction: the staged rows whose key someone stored meanwhile, or none and the rows copied in. */
  commit(trx: Db): Promise<{ inserted: number; errors: (EntityError & { row: number })[] }>;
  /** Drops what was staged, whether it was copied or not. */
  drop(db: Db): Promise<void>;
}

export interface ExportQuery {
  /** Lab calendar days, inclusive, on the entity's date (`dateField`). */
  from?: string;
  to?: string;
  /** --where field=value, checked against `filters`. */
  where: Record<string, unknown>;
}

export interface TransferEntity<Input = unknown, Existing = unknown, Plan = unknown> {
  /** The CLI's name: patients, tests, ... */
  name: string;
  /** One of them, in messages: "patient". */
  label: string;
  /** The audit trail's entity of the import's own entry. */
  auditEntity: string;
  columns: readonly TransferColumn[];
  /** The natural key column (patient_id, code, email, bill_number); null when rows have none. */
  key: string;
  /** A key as compared (codes upper-case, emails lower-case). */
  normalizeKey(raw: string): string;
  /** A key made of several columns (a result: its sample and its test), normalised; null when a part is missing. */
  keyOf?(values: Record<string, unknown>): string | null;
  /** A key value that is wrong before any look-up (a patient code in the wrong shape). */
  checkKey?(key: string): string | null;
  /** Columns the file must have. */
  requiredColumns: readonly string[];
  /** The API's schema of a new row, and of a change (partial); no updateSchema: --update is refused. */
  createSchema: z.ZodType<Input>;
  updateSchema?: z.ZodType<Partial<Input>>;
  /** Why --update is not offered (said when it is asked for). */
  noUpdate?: string;
  /** Rows per batch (validated together, looked up together, written together). */
  batchSize?: number;
  /** The stored records with these (normalised) keys. */
  findExisting(ctx: ImportContext, keys: string[]): Promise<Map<string, Existing>>;
  /** Resolves references by natural key and checks what the schema cannot; one result per row, in order. */
  plan(ctx: ImportContext, rows: ValidRow<Input, Existing>[]): Promise<PlanResult<Plan>[]>;
  /** Stores planned rows inside the import's transaction, audited. */
  write(ctx: ImportContext, plans: Plan[]): Promise<WriteCounts>;
  /** A stage for the new rows of a real import (PlanStage); without it, `write` stores every row in the lock. */
  stage?(ctx: ImportContext): Promise<PlanStage<Plan>>;
  /**
   * After the last batch, also in a dry run: rows that waited for the whole file (a calculated test
   * for the tests its formula names) are checked, and stored when `write` (no error so far, not a dry run).
   */
  finish?(ctx: ImportContext, write: boolean): Promise<WriteCounts & { errors: (EntityError & { row: number })[] }>;

  /** --where fields: each field's schema (string in, filter value out). */
  filters: Readonly<Record<string, z.ZodType>>;
  /** What --from/--to select on ("registration date"); undefined: the entity has no date. */
  dateField?: string;
  /** Records for export, in pages (constant memory), each keyed by column name with the API's values. */
  exportPages(db: Db, organizationId: number, query: ExportQuery): AsyncIterable<Record<string, unknown>[]>;
  /**
   * The same records as exportPages, each as its values in `columns` order: a faster walk for
   * entities exported by the million (patients), used by the export when present.
   */
  exportArrayPages?(db: Db, organizationId: number, query: ExportQuery): AsyncIterable<unknown[][]>;
  /**
   * The same rows as exportArrayPages cut into key ranges, for a CSV export on several threads
   * (parallel.ts); null when there is nothing to walk. Entities without it export on one thread.
   */
  exportParallel?(db: Db, organizationId: number, query: ExportQuery): Promise<ParallelExportPlan | null>;
}

/** Every entity as the registry keeps it (the engine does not need their types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds entities of different row types
export type AnyEntity = TransferEntity<any, any, any>;
