import { statSync } from 'node:fs';
import { FileRefusedError } from './errors.js';
import { LIMITS, formatOfName, type TransferFormat } from './limits.js';
import { formatCount } from '../../shared/count.js';
import { openCsv } from './formats/csv.js';
import { openXlsx } from './formats/xlsx.js';
import { readJsonRecords } from './formats/json.js';
import type { ReadPosition } from './formats/text.js';
import type { AnyEntity } from './entity.js';

/** A file's columns renamed to ours: {"their header": "our_field"}, or null to leave a column out. */
export type ColumnMapping = Readonly<Record<string, string | null>>;

/** One row of the file with our field names: raw values as the format gives them (null: a blank row). */
export interface SourceRecord {
  row: number;
  values: Record<string, unknown> | null;
  /** Problems of the row as a whole (a JSON element that is not an object, values beyond the header). */
  problem?: string;
}

export interface OpenedSource {
  format: TransferFormat;
  /** What a row is called in messages: "row" (CSV, XLSX: the spreadsheet's row) or "record" (JSON). */
  unit: 'row' | 'record';
  fileSize: number;
  position: ReadPosition;
  /** Our fields the file has (CSV, XLSX); null for JSON, whose records each say theirs. */
  fields: string[] | null;
  /** Columns (JSON: fields) the file has that are left out: mapped to null, read-only, or (JSON) unknown. */
  ignored: Set<string>;
  records: AsyncGenerator<SourceRecord>;
}

/** Only the name of a file: any folders before it (a/b/c.csv, C:\\x\\c.csv, ../../c.csv) are dropped, and control characters. */
export function safeFileName(name: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  const clean = last.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return (clean === '' || clean === '.' || clean === '..' ? 'file' : clean).slice(0, 200);
}

/** A header as lims reads it: "Date of Birth" and "date-of-birth" are date_of_birth. */
export function normalizeHeader(h: string): string {
  return h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** The format of a file: --format if given, else its name's extension. */
export function formatOf(fileName: string, given?: TransferFormat): TransferFormat {
  if (given) return given;
  const f = formatOfName(fileName);
  if (!f)
    throw new FileRefusedError(
      `cannot tell the format of ${safeFileName(fileName)} from its name; name it .csv, .xlsx or .json, or say --format csv|xlsx|json`,
    );
  return f;
}

/** The size of the file, refused when over the limit of its format. */
export function checkedSize(path: string, format: TransferFormat): number {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new FileRefusedError(`${safeFileName(path)} is not a file`);
    size = st.size;
  } catch (err) {
    if (err instanceof FileRefusedError) throw err;
    throw new FileRefusedError(
      `cannot read ${safeFileName(path)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const max = format === 'xlsx' ? LIMITS.maxXlsxBytes : LIMITS.maxFileBytes;
  if (size > max)
    throw new FileRefusedError(
      `the file is ${formatCount(Math.round(size / 1024 / 1024))} MB; at most ${formatCount(max / 1024 / 1024)} MB is read; split it into smaller files`,
    );
  return size;
}

function mappedName(header: string, mapping: ColumnMapping | undefined): { field: string | null; mapped: boolean } {
  if (mapping) {
    const t = header.trim();
    if (Object.hasOwn(mapping, t)) return { field: mapping[t] || null, mapped: true };
    const n = normalizeHeader(header);
    for (const [k, v] of Object.entries(mapping))
      if (normalizeHeader(k) === n) return { field: v || null, mapped: true };
  }
  return { field: normalizeHeader(header), mapped: false };
}

/** Opens an import file of an entity: its columns mapped to the entity's fields, rows streamed. */
export async function openSource(
  path: string,
  format: TransferFormat,
  entity: AnyEntity,
  mapping?: ColumnMapping,
  update = false,
  origin: 'cli' | 'web' = 'cli',
): Promise<OpenedSource> {
  const fileSize = checkedSize(path, format);
  const position: ReadPosition = { bytes: 0 };
  const columns = new Map(entity.columns.map((c) => [c.name, c]));
  const ignored = new Set<string>();
  if (format === 'json') {
    return { format, unit: 'record', fileSize, position, fields: null, ignored, records: jsonRecords() };
  }
  const file = format === 'csv' ? await openCsv(path, position) : await openXlsx(path, position);
  const fieldAt: (string | null)[] = [];
  const unknown: string[] = [];
  const seen = new Map<string, string>();
  for (const h of file.header) {
    const header = String(h ?? '');
    if (header.trim() === '') {
      fieldAt.push(null);
      continue;
    }
    const { field, mapped } = mappedName(header, mapping);
    if (field === null) {
      ignored.add(header.trim());
      fieldAt.push(null);
      continue;
    }
    const col = columns.get(field);
    if (!col) {
      unknown.push(mapped ? `${header.trim()} (mapped to ${field})` : header.trim());
      fieldAt.push(null);
      continue;
    }
    const before = seen.get(field);
    if (before !== undefined)
      throw new FileRefusedError(`the columns "${before}" and "${header.trim()}" are both ${field}; keep one of them`);
    seen.set(field, header.trim());
    if (col.readOnly) {
      ignored.add(header.trim());
      fieldAt.push(null);
      continue;
    }
    fieldAt.push(field);
  }
  if (unknown.length) {
    await file.rows.return(undefined);
    throw new FileRefusedError(
      `the file has column${unknown.length === 1 ? '' : 's'} that ${entity.name} do not have: ${unknown.join(', ')}. ` +
        `The columns of ${entity.name} are ${entity.columns.map((c) => c.name).join(', ')}. ` +
        (origin === 'web'
          ? 'Rename the header, choose the column it fills under "Column mapping" (or "Leave out"), or remove the column'
          : 'Rename the header, map it with --mapping FILE ({"their header": "our_column"}, null to leave a column out), or remove the column'),
    );
  }
  // An update may carry only the key and the columns it changes; rows it adds are checked one by one.
  const missing = (update ? [entity.key] : entity.requiredColumns).filter((c) => !seen.has(c));
  if (missing.length) {
    await file.rows.return(undefined);
    throw new FileRefusedError(
      `the file has no ${missing.join(', ')} column${missing.length === 1 ? '' : 's'}, which ${entity.name} need${update ? ' to be matched for --update' : ''}`,
    );
  }
  const fields = fieldAt.filter((f): f is string => f !== null);

  async function* tabularRecords(): AsyncGenerator<SourceRecord> {
    for await (const { row, cells } of file.rows) {
      let blank = true;
      for (const c of cells) {
        if (c !== '' && c !== null && c !== undefined) {
          blank = false;
          break;
        }
      }
      if (blank) {
        yield { row, values: null };
        continue;
      }
      const values: Record<string, unknown> = {};
      let problem: string | undefined;
      for (let i = 0; i < fieldAt.length; i++) {
        const f = fieldAt[i];
        if (f) values[f] = i < cells.length ? cells[i] : '';
      }
      for (let i = fieldAt.length; i < cells.length; i++) {
        const c = cells[i];
        if (c !== '' && c !== null && c !== undefined) {
          problem = `the row has ${formatCount(cells.length)} values but the header names ${formatCount(fieldAt.length)} columns`;
          break;
        }
      }
      yield problem ? { row, values, problem } : { row, values };
    }
  }

  async function* jsonRecords(): AsyncGenerator<SourceRecord> {
    for await (const rec of readJsonRecords(path, position)) {
      if ('invalid' in rec) {
        yield { row: rec.row, values: null, problem: rec.invalid };
        continue;
      }
      const v = rec.value;
      if (v === null || typeof v !== 'object' || Array.isArray(v)) {
        yield { row: rec.row, values: null, problem: 'is not a record (an object of fields)' };
        continue;
      }
      const values: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
        const { field } = mappedName(k, mapping);
        const col = field === null ? undefined : columns.get(field);
        if (!col || col.readOnly) {
          ignored.add(k);
          continue;
        }
        values[col.name] = val;
      }
      yield { row: rec.row, values };
    }
  }

  return { format, unit: 'row', fileSize, position, fields, ignored, records: tabularRecords() };
}

/**
 * The headers of a file as written (CSV, XLSX: the header row; JSON: the fields of its first
 * records), for the screens' column mapping. The file is refused as an import would refuse it.
 */
export async function fileHeaders(path: string, format: TransferFormat): Promise<string[]> {
  checkedSize(path, format);
  const position: ReadPosition = { bytes: 0 };
  if (format === 'json') {
    const names = new Set<string>();
    let seen = 0;
    for await (const rec of readJsonRecords(path, position)) {
      if (!('invalid' in rec) && rec.value && typeof rec.value === 'object' && !Array.isArray(rec.value))
        for (const k of Object.keys(rec.value)) names.add(k);
      if (++seen >= 20) break;
    }
    return [...names];
  }
  const file = format === 'csv' ? await openCsv(path, position) : await openXlsx(path, position);
  await file.rows.return(undefined);
  return file.header.map((h) => String(h ?? '').trim()).filter((h) => h !== '');
}
