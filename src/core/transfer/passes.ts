import type { z } from 'zod';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { getOrganization } from '../settings/service.js';
import { localDate } from '../../shared/time.js';
import { formatCount } from '../../shared/count.js';
import { DomainError } from '../errors.js';
import { withSavepoint } from '../db/savepoint.js';
import { statisticsAsWritten } from '../db/bulk-statistics.js';
import { readCell, type CellContext, type ColumnKind } from './cells.js';
import { quoted, type RowError } from './errors.js';
import type { ErrorReport } from './report.js';
import { KeyRows } from './key-rows.js';
import type { OpenedSource, SourceRecord } from './source.js';
import type { PlanSpool } from './spool.js';
import { DEFERRED, type ImportContext, type ValidRow, type WriteCounts } from './entity.js';
import type { ImportOptions, ImportResult } from './import-types.js';

/**
 * The two passes of an import (import.ts runs them): the check pass reads and checks every row of
 * the file without the write lock; the store pass writes what the check planned, inside the
 * import's one transaction.
 */

/** Thrown inside the pass when the import is cancelled: its transaction is rolled back. */
export class Cancelled extends Error {}

const DEFAULT_BATCH = 500;

/** Zod's problems of a row, by column; a nested path (items.0.qty) names the column and the place in it. */
function schemaErrors(row: number, error: z.ZodError, values: Record<string, unknown>): RowError[] {
  return error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    const column = head === undefined ? null : String(head);
    const where = rest.length
      ? `${rest.map((p) => (typeof p === 'number' ? `#${p + 1}` : String(p))).join(' ')}: `
      : '';
    const raw = column ? values[column] : undefined;
    const got =
      !rest.length && raw !== undefined && raw !== null && raw !== '' && typeof raw !== 'object'
        ? ` (got "${quoted(raw)}")`
        : '';
    return { row, column, message: `${where}${issue.message}${got}` };
  });
}

interface Pending {
  rec: SourceRecord;
  values: Record<string, unknown>;
  /** Columns whose cell is empty: left out of a new record (its default), cleared on an update. */
  blanks: string[];
  key: string | null;
  errors: RowError[];
}

const isBlank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

/** A planned row as the store pass takes it: its key, and whether it was new when checked. */
export interface Spooled {
  row: number;
  key: string | null;
  fresh: boolean;
  plan: unknown;
}

/**
 * The check pass: convert, check and look up every row, batch by batch, without the write lock.
 * While the file is clean, each batch's plans go to the spool (none in a dry run, which counts what
 * would be stored). Answers the context the store pass goes on with (entities keep what they
 * deferred in it).
 */
export async function checkRows(
  db: Db,
  actor: Actor,
  opts: ImportOptions,
  source: OpenedSource,
  report: ErrorReport,
  result: ImportResult,
  spool: PlanSpool | null,
): Promise<ImportContext> {
  const { entity } = opts;
  const org = await getOrganization(db, actor.organizationId);
  // Each key of the file and the first row it is on: duplicates are refused by it, and entities ask
  // it whether a code they reference comes with the same file (outside the heap: key-rows.ts).
  const firstRowOfKey = new KeyRows();
  const ctx: ImportContext = {
    db,
    actor,
    organizationId: actor.organizationId,
    timeZone: org.timezone,
    today: localDate(org.timezone),
    dateFormat: org.date_format,
    update: opts.update,
    dryRun: opts.dryRun,
    keysInFile: { has: (key) => firstRowOfKey.has(key) },
    deferred: [],
    async attempt<T>(row: number, fn: () => Promise<T>): Promise<T | undefined> {
      try {
        return opts.dryRun ? await fn() : await withSavepoint(ctx.db, fn);
      } catch (err) {
        if (!(err instanceof DomainError) || err.statusCode >= 500) throw err;
        const detail = err.details?.[0];
        const column = detail ? detail.path.split('.')[0]! : null;
        await report.add({ row, column, message: detail ? detail.message : err.message });
        return undefined;
      }
    },
  };
  const cellCtx: CellContext = {
    dateFormat: org.date_format,
    timeZone: org.timezone,
    fromXlsx: source.format === 'xlsx',
  };
  const kinds = new Map<string, ColumnKind>(entity.columns.map((c) => [c.name, c.kind ?? 'text']));
  const batchSize = entity.batchSize ?? DEFAULT_BATCH;
  let batch: Pending[] = [];
  let lastProgress = 0;
  // The key of each valid row of the batch, for the store pass's second look.
  const keyOfRow = new Map<number, string>();

  const flush = async () => {
    if (!batch.length) return;
    const rows = batch;
    batch = [];
    const keys = [...new Set(rows.map((r) => r.key).filter((k): k is string => k !== null))];
    const existing = keys.length ? await entity.findExisting(ctx, keys) : new Map<string, unknown>();
    const valid: ValidRow<unknown, unknown>[] = [];
    // The batch's errors, reported in row order once all of its checks are done.
    const errors: RowError[] = [];
    for (const p of rows) {
      const found = p.key !== null ? existing.get(p.key) : undefined;
      if (p.errors.length) {
        errors.push(...p.errors);
        // The rest of the row is checked too, so one pass names every problem of every row (a
        // record that could not be read at all has nothing more to check).
        if (!p.rec.values) continue;
        const named = new Set(p.errors.map((e) => e.column));
        const parsed = (found !== undefined && opts.update ? entity.updateSchema! : entity.createSchema).safeParse(
          p.values,
        );
        if (!parsed.success)
          errors.push(...schemaErrors(p.rec.row, parsed.error, p.values).filter((e) => !named.has(e.column)));
        continue;
      }
      if (found !== undefined && !opts.update) {
        errors.push({
          row: p.rec.row,
          column: entity.key,
          message: `${quoted(entity.keyOf ? p.key : p.values[entity.key])}: a ${entity.label} with this ${entity.keyOf ? 'key' : entity.key} is already stored${entity.updateSchema ? ' (import with --update to change it)' : ''}`,
        });
        continue;
      }
      const schema = found !== undefined ? entity.updateSchema! : entity.createSchema;
      if (found !== undefined) for (const b of p.blanks) p.values[b] = null;
      const parsed = schema.safeParse(p.values);
      if (!parsed.success) {
        errors.push(...schemaErrors(p.rec.row, parsed.error, p.values));
        continue;
      }
      let input = parsed.data as Record<string, unknown>;
      // An update changes the columns the file has, nothing else (no schema default creeps in).
      if (found !== undefined)
        input = Object.fromEntries(Object.entries(input).filter(([k]) => Object.hasOwn(p.values, k)));
      valid.push({ row: p.rec.row, input, existing: found });
      if (p.key !== null) keyOfRow.set(p.rec.row, p.key);
    }
    const planned = valid.length ? await entity.plan(ctx, valid) : [];
    const plans: Spooled[] = [];
    for (const [i, r] of planned.entries()) {
      if ('errors' in r) {
        for (const e of r.errors) errors.push({ row: r.row, ...e });
        continue;
      }
      if (r.plan === DEFERRED) continue;
      const fresh = valid[i]!.existing === undefined;
      plans.push({ row: r.row, key: keyOfRow.get(r.row) ?? null, fresh, plan: r.plan });
    }
    keyOfRow.clear();
    errors.sort((a, b) => a.row - b.row);
    for (const e of errors) await report.add(e);
    if (report.count > 0) return;
    if (spool) spool.append(plans);
    else
      for (const p of plans) {
        if (p.fresh) result.inserted += 1;
        else result.updated += 1;
      }
  };

  for await (const rec of source.records) {
    if (opts.signal?.aborted) throw new Cancelled();
    if (!rec.values && !rec.problem) continue;
    result.rows += 1;
    const pending: Pending = { rec, values: {}, blanks: [], key: null, errors: [] };
    if (rec.problem) pending.errors.push({ row: rec.row, column: null, message: rec.problem });
    if (rec.values) {
      for (const name in rec.values) {
        const raw = rec.values[name];
        if (isBlank(raw)) {
          pending.blanks.push(name);
          continue;
        }
        const kind = kinds.get(name)!;
        // Text read as text (most cells of most files) needs no conversion.
        if (kind === 'text' && typeof raw === 'string') {
          pending.values[name] = raw;
          continue;
        }
        const cell = readCell(kind, raw, cellCtx);
        if ('error' in cell) pending.errors.push({ row: rec.row, column: name, message: cell.error });
        else if (cell.value !== undefined) pending.values[name] = cell.value;
      }
      const rawKey = entity.keyOf ? entity.keyOf(pending.values) : pending.values[entity.key];
      if (typeof rawKey === 'string' && rawKey.trim() !== '') {
        const key = entity.keyOf ? rawKey : entity.normalizeKey(rawKey);
        const wrong = entity.checkKey?.(key);
        if (wrong) pending.errors.push({ row: rec.row, column: entity.key, message: `${quoted(rawKey)}: ${wrong}` });
        const first = firstRowOfKey.add(key, rec.row);
        if (first !== undefined) {
          pending.errors.push({
            row: rec.row,
            column: entity.key,
            message: `${quoted(rawKey)} is also on ${source.unit} ${formatCount(first)}; each ${entity.label} may appear once in a file`,
          });
        }
        pending.key = key;
      }
    }
    batch.push(pending);
    if (batch.length >= batchSize) await flush();
    if (opts.onProgress && result.rows - lastProgress >= 1000) {
      lastProgress = result.rows;
      opts.onProgress({
        processed: result.rows,
        errors: report.count,
        bytes: source.position.bytes,
        fileSize: source.fileSize,
      });
    }
  }
  await flush();
  if (opts.signal?.aborted) throw new Cancelled();
  // A dry run checks the deferred rows now; a real import checks and stores them in its store pass.
  if (entity.finish && opts.dryRun) {
    const done = await entity.finish(ctx, false);
    for (const e of done.errors) await report.add(e);
    if (report.count === 0) add(result, done);
  }
  opts.onProgress?.({
    processed: result.rows,
    errors: report.count,
    bytes: source.fileSize,
    fileSize: source.fileSize,
  });
  return ctx;
}

function add(result: ImportResult, c: WriteCounts): void {
  result.inserted += c.inserted;
  result.updated += c.updated;
}

/**
 * The store pass, inside the import's one transaction: each spooled batch is looked up again (a
 * key someone stored, or a record someone removed, since the check refuses the import at its row)
 * and written; then the rows the entity deferred are checked and stored.
 */
export async function storeRows(
  trx: Db,
  ctx: ImportContext,
  opts: ImportOptions,
  spool: PlanSpool,
  report: ErrorReport,
  result: ImportResult,
): Promise<void> {
  const { entity } = opts;
  ctx.db = trx;
  const statistics = statisticsAsWritten(trx);
  const progress = () =>
    opts.onProgress?.({
      processed: result.rows,
      errors: report.count,
      bytes: 1,
      fileSize: 1,
      stored: result.inserted + result.updated,
    });
  let lastProgress = 0;
  for (const batch of spool.read() as Generator<Spooled[]>) {
    if (opts.signal?.aborted) throw new Cancelled();
    const keys = batch.map((p) => p.key).filter((k): k is string => k !== null);
    const now = keys.length ? await entity.findExisting(ctx, keys) : new Map<string, unknown>();
    for (const p of batch) {
      if (p.key === null || now.has(p.key) !== p.fresh) continue;
      await report.add({
        row: p.row,
        column: entity.keyOf ? null : entity.key,
        message: p.fresh
          ? `a ${entity.label} with this ${entity.keyOf ? 'key' : entity.key} was stored by someone else while the file was checked; import the file again`
          : `this ${entity.label} was removed by someone else while the file was checked; import the file again`,
      });
    }
    if (report.count > 0) return;
    add(
      result,
      await entity.write(
        ctx,
        batch.map((p) => p.plan),
      ),
    );
    await statistics(result.inserted + result.updated);
    if (result.inserted + result.updated - lastProgress >= 1000) {
      lastProgress = result.inserted + result.updated;
      progress();
    }
  }
  if (entity.finish) {
    const done = await entity.finish(ctx, true);
    for (const e of done.errors) await report.add(e);
    if (report.count === 0) add(result, done);
  }
  progress();
}
