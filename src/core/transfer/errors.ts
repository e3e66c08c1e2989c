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
