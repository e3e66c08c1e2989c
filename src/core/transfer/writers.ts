import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { csvField, csvHeader, csvLine, csvText } from '../export/csv.js';
import { writeCell, type ColumnKind } from './cells.js';
import type { TransferColumn } from './entity.js';
import type { TransferFormat } from './limits.js';

/**
 * The export formats, each writing pages of records to a stream as they come (constant memory):
 * CSV as the UI's downloads write it (UTF-8 with BOM, CRLF, formula-safe cells: src/core/export/csv.ts),
 * JSON as an array of the API's records, XLSX through exceljs' streaming writer (one sheet; text is
 * written as text cells, so nothing in it is ever a formula).
 */
export interface RecordWriter {
  write(records: readonly Record<string, unknown>[]): Promise<void>;
  /** The same, each record as its values in the columns' order (TransferEntity.exportArrayPages); optional for writers of one entity (the bill register). */
  writeArrays?(rows: readonly (readonly unknown[])[]): Promise<void>;
  close(): Promise<void>;
}

/** A record from its values in the columns' order, for the writers that need names. */
function recordOf(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) o[names[i]!] = values[i];
  return o;
}

const put = putChunk;

/**
 * Rows given as their values in the columns' order (values past the last column, such as a walk's
 * id, are left out) as CSV lines with their CRLF: csvLine(writeCell(...)) cell by cell, without the
 * array of cells. A text in a column that is not JSON is written as it is (writeCell keeps it), so
 * it goes straight to csvText. The CSV writer's array walk and the parallel export's workers
 * (export-worker.ts) both write their lines with this, so their bytes are the same.
 */
export function csvArrayLines(rows: readonly (readonly unknown[])[], kinds: readonly ColumnKind[]): string {
  const n = kinds.length;
  let text = '';
  for (const r of rows) {
    let line = '';
    for (let i = 0; i < n; i++) {
      const v = r[i];
      if (i > 0) line += ',';
      if (v === null || v === undefined) continue;
      line += typeof v === 'string' && kinds[i] !== 'json' ? csvText(v) : csvField(writeCell(kinds[i]!, v));
    }
    text += `${line}\r\n`;
  }
  return text;
}

/** Writes text or bytes, waiting while the stream is full. */
export async function putChunk(out: Writable, chunk: string | Uint8Array): Promise<void> {
  failIfBroken(out);
  if (!out.write(chunk)) await drained(out);
}

/**
 * An output that failed (a full disk, a folder that is not there, the reader gone, the export
 * stopped) ends the export with its reason at the next write, instead of filling memory or
 * waiting for a 'drain' that never comes.
 */
export function failIfBroken(out: Writable): void {
  if (out.errored) throw out.errored;
  if (out.destroyed) throw new Error('the output was closed before the end');
}

async function drained(out: Writable): Promise<void> {
  failIfBroken(out);
  await once(out, 'drain');
}

function csvWriter(out: Writable, columns: readonly TransferColumn[]): RecordWriter {
  let started = false;
  const names = columns.map((c) => c.name);
  const kinds = columns.map((c) => c.kind ?? 'text');
  const cells: ReturnType<typeof writeCell>[] = new Array<ReturnType<typeof writeCell>>(names.length);
  const header = async () => {
    if (!started) {
      started = true;
      await put(out, csvHeader(names));
    }
  };
  return {
    async write(records) {
      await header();
      if (!records.length) return;
      // One string per page, built line by line (a million rows are a million short strings, not arrays of arrays).
      let text = '';
      for (const r of records) {
        for (let i = 0; i < names.length; i++) cells[i] = writeCell(kinds[i]!, r[names[i]!]);
        text += csvLine(cells);
      }
      await put(out, text);
    },
    async writeArrays(rows) {
      await header();
      if (!rows.length) return;
      await put(out, csvArrayLines(rows, kinds));
    },
    async close() {
      await header();
    },
  };
}

function jsonWriter(out: Writable, columns: readonly TransferColumn[]): RecordWriter {
  let first = true;
  const names = columns.map((c) => c.name);
  const writer: RecordWriter = {
    writeArrays: (rows) => writer.write(rows.map((r) => recordOf(names, r))),
    async write(records) {
      if (!records.length) return;
      const text = records
        .map((r) => {
          const o: Record<string, unknown> = {};
          for (const c of columns) o[c.name] = r[c.name] ?? null;
          const line = `${first ? '[\n' : ',\n'}  ${JSON.stringify(o)}`;
          first = false;
          return line;
        })
        .join('');
      await put(out, text);
    },
    async close() {
      await put(out, first ? '[]\n' : '\n]\n');
    },
  };
  return writer;
}

async function xlsxWriter(out: Writable, columns: readonly TransferColumn[], sheetName: string): Promise<RecordWriter> {
  // Loaded on use: exceljs is large, and most commands never write a workbook.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  const header = sheet.addRow(columns.map((c) => c.name));
  header.font = { bold: true };
  header.commit();
  const kinds = columns.map((c) => c.kind ?? 'text');
  return {
    async write(records) {
      for (const r of records) {
        sheet.addRow(columns.map((c, i) => writeCell(kinds[i]!, r[c.name]))).commit();
      }
      // Let the zip stream drain between pages.
      if (out.writableNeedDrain) await drained(out);
      failIfBroken(out);
    },
    async writeArrays(rows) {
      for (const r of rows) sheet.addRow(kinds.map((k, i) => writeCell(k, r[i]))).commit();
      if (out.writableNeedDrain) await drained(out);
      failIfBroken(out);
    },
    async close() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

export async function recordWriter(
  format: TransferFormat,
  out: Writable,
  columns: readonly TransferColumn[],
  sheetName: string,
): Promise<RecordWriter> {
  if (format === 'csv') return csvWriter(out, columns);
  if (format === 'json') return jsonWriter(out, columns);
  return xlsxWriter(out, columns, sheetName);
}
