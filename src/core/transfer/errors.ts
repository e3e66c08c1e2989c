import { DomainError } from '../errors.js';
import { formatCount } from '../../shared/count.js';
import { LIMITS } from './limits.js';

/** The file as a whole cannot be imported (wrong encoding, too many columns, a zip bomb, ...). */
export class FileRefusedError extends DomainError {
  constructor(message: string) {
    super(400, 'IMPORT_FILE_REFUSED', message);
  }
}

/** One problem of one row: the row as the file's reader counts it (see RowError.unit), the column, the problem. */
export interface RowError {
  /** 1-based; for CSV and XLSX the spreadsheet's row (the header is row 1), for JSON the record's position. */
  row: number;
  /** Our field name; null when the problem is the row as a whole. */
  column: string | null;
  message: string;
}

/** "row 1,204, column date_of_birth: 31/02/1988 is not a date" (JSON files: "record 3, field ..."). */
export function describeRowError(e: RowError, unit: 'row' | 'record'): string {
  const where = `${unit} ${formatCount(e.row)}`;
  const col = e.column ? `, ${unit === 'row' ? 'column' : 'field'} ${e.column}` : '';
  return `${where}${col}: ${e.message}`;
}

/** A cell's value as quoted in a message: shortened, one line. */
export function quoted(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  const one = (s ?? '').replace(/\s+/g, ' ').trim();
  return one.length > LIMITS.quotedChars ? `${one.slice(0, LIMITS.quotedChars - 1)}…` : one;
}

/** One kind of problem across the file: the column, how many rows have it, the first rows and the first message. */
export interface ErrorGroup {
  column: string | null;
  count: number;
  /** The first rows with it (at most GROUP_ROWS). */
  rows: number[];
  /** The first row's message: the others differ only in the values they quote. */
  message: string;
}

export const GROUP_ROWS = 3;

/**
 * The kind of a problem: its column and its message with the quoted values and numbers taken out,
 * so "(got "M")" on 2,056 rows is one kind and a file's 5,000 errors read as a few lines.
 */
export function errorKind(e: RowError): string {
  const template = e.message.replace(/"[^"]*"/g, '"…"').replace(/\d[\d,.]*/g, '#');
  return `${e.column ?? ''}\u0000${template}`;
}

/** "2,056 rows, e.g. rows 2, 3, 5: Gender must be Male, Female or Other (got "M")". */
export function describeGroupRows(g: ErrorGroup, unit: 'row' | 'record'): string {
  const first = g.rows.map((r) => formatCount(r)).join(', ');
  if (g.count === 1) return `1 ${unit}, ${unit} ${first}: ${g.message}`;
  return `${formatCount(g.count)} ${unit}s, e.g. ${unit}${g.rows.length > 1 ? 's' : ''} ${first}: ${g.message}`;
}

/** "gender: 2,056 rows, e.g. rows 2, 3, 5: Gender must be Male, Female or Other (got "M")". */
export function describeErrorGroup(g: ErrorGroup, unit: 'row' | 'record'): string {
  return `${g.column ?? `the ${unit} as a whole`}: ${describeGroupRows(g, unit)}`;
}
