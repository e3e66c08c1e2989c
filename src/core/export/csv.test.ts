import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { csvField, csvHeader, csvRows, csvText, safeCell } from './csv.js';

/**
 * csv-stringify with lims' options and line breaks inside a cell quoted (quote_record_delimiter):
 * with record_delimiter 'windows' alone it left a lone LF unquoted, which split a multi-line
 * allergy note into two rows for every reader.
 */
const reference = (rows: unknown[][]) =>
  stringify(
    rows.map((r) => r.map((v) => safeCell(v as string))),
    { record_delimiter: 'windows', quote_record_delimiter: true },
  );

describe('csvRows', () => {
  it('writes the same bytes as csv-stringify for awkward cells', () => {
    const cells = [
      '',
      'plain',
      'Rāma Śarmā',
      'राम शर्मा',
      'a,b',
      'say "hi"',
      '"',
      'line\nbreak',
      'cr\rhere',
      'crlf\r\nhere',
      '=SUM(A1)',
      '@cmd',
      '\tTab',
      '+91 98765 43210',
      '-12.5',
      '-x',
      '+',
      "'already",
      ' spaced ',
      null,
      undefined,
      0,
      -3,
      12.75,
      true,
      false,
    ];
    const rows: unknown[][] = [cells, [...cells].reverse(), [''], [null], ['a'], []];
    for (let i = 0; i < 300; i++)
      rows.push(Array.from({ length: 5 }, (_, k) => cells[(i * 7 + k * 13) % cells.length]));
    expect(csvRows(rows as string[][])).toBe(reference(rows));
    // The exports' shortcut for text cells writes what csvField writes.
    for (const c of cells) if (typeof c === 'string') expect(csvText(c)).toBe(csvField(c));
  });

  it('starts a file with the byte order mark and the header', () => {
    expect(csvHeader(['a', 'b c', 'd,e'])).toBe('\uFEFFa,b c,"d,e"\r\n');
  });

  it('makes formulas inert and leaves numbers alone', () => {
    expect(safeCell('=1+1')).toBe("'=1+1");
    expect(safeCell('-5')).toBe('-5');
    expect(safeCell('+91 98765 43210')).toBe('+91 98765 43210');
    expect(safeCell('-HYPERLINK()')).toBe("'-HYPERLINK()");
  });
});
