import { labTimestamp } from '../shared/time.js';
import Table from 'cli-table3';
import { csvRows } from '../core/export/csv.js';

/**
 * The only place that knows how things look on the terminal: tables (cli-table3), JSON and CSV
 * listings, one-line messages and errors. Commands hand it data and plain sentences.
 */

export const FORMATS = ['table', 'json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

type Cell = string | number | boolean | null;

export interface Column<T> {
  header: string;
  /** The raw value: what CSV carries. */
  value: (row: T) => Cell;
  /** What a person reads in the table, when it differs from the raw value (dates, labels). */
  display?: (row: T) => string;
}

export interface Listing<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  /** What JSON carries for one row; the whole record unless given. */
  json?: (row: T) => unknown;
  /** Said instead of an empty table. */
  empty: string;
}

/** Where the CLI writes; tests may pass their own streams. */
export interface Streams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

function tableCell(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

function csvCell(v: Cell): string {
  if (v === null) return '';
  return String(v);
}

export class Output {
  constructor(private readonly streams: Streams) {}

  /** A line for the person (or script) reading stdout. */
  line(text = ''): void {
    this.streams.stdout.write(`${text}\n`);
  }

  /** Indented "label  value" pairs, aligned: for summaries after setup and the like. */
  fields(pairs: readonly (readonly [string, string])[]): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) this.line(`  ${`${k}:`.padEnd(width + 2)}${v}`);
  }

  /** The one-line error every failure ends in. */
  error(message: string): void {
    this.streams.stderr.write(`lims: ${message}\n`);
  }

  /** Extra diagnostic text on stderr (stack traces with --verbose). */
  detail(text: string): void {
    this.streams.stderr.write(`${text.trimEnd()}\n`);
  }

  list<T>(format: Format, listing: Listing<T>): void {
    const { rows, columns } = listing;
    if (format === 'json') {
      this.line(
        JSON.stringify(
          rows.map((r) => (listing.json ? listing.json(r) : r)),
          null,
          2,
        ),
      );
      return;
    }
    if (format === 'csv') {
      const data = [columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => csvCell(c.value(r))))];
      this.streams.stdout.write(csvRows(data, { lineEnd: '\n' }));
      return;
    }
    if (rows.length === 0) {
      this.line(listing.empty);
      return;
    }
    // No colours: output is often pasted into tickets or piped into files.
    const table = new Table({ head: columns.map((c) => c.header), style: { head: [], border: [] } });
    for (const r of rows) table.push(columns.map((c) => (c.display ? c.display(r) : tableCell(c.value(r)))));
    this.line(table.toString());
  }
}

/** "2025-01-31 14:05" in the lab's timezone; empty for never. */
export const formatTimestamp = labTimestamp;

/** Quotes a path so a printed command can be pasted into a POSIX shell as is. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
