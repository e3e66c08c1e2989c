import { parseLabDate, localTimeUtc } from '../../shared/time.js';
import { quoted } from './errors.js';
import { LIMITS } from './limits.js';

/**
 * How a column's values are written in files. CSV cells are text; XLSX cells may be
 * numbers, booleans and dates; JSON values are as the API writes them. Each kind turns a cell into
 * the value the API's schema reads, or says why it cannot.
 */
export type ColumnKind = 'text' | 'number' | 'boolean' | 'date' | 'timestamp' | 'list' | 'json';

export interface CellContext {
  /** The lab's date format (System Settings), also accepted for dates besides YYYY-MM-DD. */
  dateFormat: string;
  timeZone: string;
  /** Excel dates are wall-clock values without a zone. */
  fromXlsx: boolean;
}

export type Cell = { value: unknown } | { error: string };

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/** An Excel date serial (days since 1899-12-30) as the Date exceljs would give. */
function fromSerial(n: number): Date {
  return new Date(EXCEL_EPOCH_MS + Math.round(n * DAY_MS));
}

function ymdOf(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** "1,23,456.50" or "123,456.50" (grouped digits, as spreadsheets show numbers) without the commas. */
const GROUPED = /^[+-]?\d{1,3}(,\d{2,3})+(\.\d+)?$/;

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** "2026-03-05 14:30", "2026-03-05T14:30:00", "05/03/2026 14:30:15" (lab's date format), or a date alone. */
const LOCAL_TIME = /^(.+?)[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth -= 1;
  }
  return max;
}

export function readCell(kind: ColumnKind, raw: unknown, ctx: CellContext): Cell {
  if (raw === undefined) return { value: undefined };
  if (
    raw !== null &&
    typeof raw === 'object' &&
    !(raw instanceof Date) &&
    !Array.isArray(raw) &&
    'error' in raw &&
    ctx.fromXlsx
  )
    return { error: `the cell holds the spreadsheet error ${String((raw as { error: unknown }).error)}` };
  if (raw === null) return { value: null };
  switch (kind) {
    case 'text':
      if (typeof raw === 'string') return { value: raw };
      if (typeof raw === 'number') return { value: Number.isInteger(raw) ? raw.toFixed(0) : String(raw) };
      if (typeof raw === 'boolean') return { value: raw ? 'true' : 'false' };
      if (raw instanceof Date) return { value: raw.toISOString().slice(0, 10) };
      return { value: raw };
    case 'number': {
      if (typeof raw !== 'string') return { value: raw };
      const t = raw.trim();
      if (t === '') return { value: null };
      return { value: GROUPED.test(t) ? t.replace(/,/g, '') : t };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { value: raw };
      if (typeof raw === 'number' && (raw === 0 || raw === 1)) return { value: raw === 1 };
      const t = String(raw).trim().toLowerCase();
      if (t === '') return { value: undefined };
      if (TRUE.has(t)) return { value: true };
      if (FALSE.has(t)) return { value: false };
      return { error: `${quoted(raw)} is not yes or no (write true or false)` };
    }
    case 'date': {
      if (raw instanceof Date) return { value: ymdOf(raw) };
      if (typeof raw === 'number' && ctx.fromXlsx && raw > 0 && raw < 2_958_466)
        return { value: ymdOf(fromSerial(raw)) };
      const t = String(raw).trim();
      if (t === '') return { value: null };
      // DD/MM/YYYY, as most Indian spreadsheets write dates, also in a lab set to YYYY-MM-DD (where
      // it cannot be mistaken); a lab set to MM/DD/YYYY reads its own order only.
      const iso =
        parseLabDate(t, ctx.dateFormat) ?? (ctx.dateFormat === 'YYYY-MM-DD' ? parseLabDate(t, 'DD/MM/YYYY') : null);
      if (iso) return { value: iso };
      // Excel's own text of a date with a time ("1988-02-11 00:00:00"): the date part.
      const withTime = /^(\d{4}-\d{2}-\d{2})[ T]00:00(:00)?(\.0+)?Z?$/.exec(t);
      if (withTime) return { value: withTime[1] };
      return {
        error: `${quoted(t)} is not a date (write YYYY-MM-DD, or ${ctx.dateFormat} as the lab's dates are set)`,
      };
    }
    case 'timestamp': {
      if (raw instanceof Date)
        return {
          value: localTimeUtc(
            ctx.timeZone,
            ymdOf(raw),
            raw.getUTCHours(),
            raw.getUTCMinutes(),
            raw.getUTCSeconds(),
          ).toISOString(),
        };
      if (typeof raw === 'number' && ctx.fromXlsx) return readCell('timestamp', fromSerial(raw), ctx);
      const t = String(raw).trim();
      if (t === '') return { value: null };
      // With a zone (what lims exports): taken as it is.
      if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(t)) {
        const d = new Date(t);
        if (!Number.isNaN(d.getTime())) return { value: d.toISOString() };
      }
      const m = LOCAL_TIME.exec(t);
      const day = parseLabDate(m ? m[1]! : t, ctx.dateFormat);
      const [h, mi, s] = m ? [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)] : [0, 0, 0];
      if (day && h < 24 && mi < 60 && s < 60) return { value: localTimeUtc(ctx.timeZone, day, h, mi, s).toISOString() };
      return { error: `${quoted(t)} is not a date and time (write 2026-03-05 14:30 in the lab's time, or ISO-8601)` };
    }
    case 'list': {
      if (Array.isArray(raw)) return { value: raw };
      const t = String(raw).trim();
      if (t === '') return { value: [] };
      return {
        value: t
          .split(/[,;\n]/)
          .map((x) => x.trim())
          .filter(Boolean),
      };
    }
    case 'json': {
      if (typeof raw !== 'string') return { value: raw };
      const t = raw.trim();
      if (t === '') return { value: undefined };
      if (jsonDepth(t) > LIMITS.maxJsonDepth - 2)
        return { error: `the JSON in this cell is nested more than ${LIMITS.maxJsonDepth - 2} levels deep` };
      try {
        return { value: JSON.parse(t) as unknown };
      } catch {
        return { error: `${quoted(t)} is not valid JSON` };
      }
    }
  }
}

/** A cell's value as written to CSV and XLSX (JSON keeps the API's values as they are). */
export function writeCell(kind: ColumnKind, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (kind === 'list' && Array.isArray(value)) return value.join(', ');
  if (kind === 'json') return JSON.stringify(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return value as string | number | boolean;
}
