type Cell = string | number | boolean | null | undefined;

/**
 * A text a spreadsheet would run as a formula (=, @, tab, CR, or +/- not followed by a plain
 * number such as a phone number) gets a leading apostrophe, so opening an export never executes
 * what someone typed into a patient's record.
 */
export function safeCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'string' ? value : String(value);
  if (s === '') return s;
  // Only a text starting with one of = @ TAB CR + - can be a formula: most cells stop here.
  const c = s.charCodeAt(0);
  if (c !== 61 && c !== 64 && c !== 9 && c !== 13 && c !== 43 && c !== 45) return s;
  if (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]?[\d\s.-]+$/.test(s))) return `'${s}`;
  return s;
}

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * One formula-safe cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line
 * break (a lone LF or CR too: csv-stringify, which lims used before, left those bare and so split a
 * multi-line note into two rows), quotes doubled; otherwise the same bytes as csv-stringify
 * (csv.test.ts compares them). Written by hand because exports write millions of cells.
 */
export function csvField(value: Cell): string {
  const s = safeCell(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(QUOTES, '""')}"` : s;
}

/**
 * csvField of a text, the common case first: a text that cannot be a formula and holds no comma,
 * quote or line break is its own cell. Exports of a million rows call this for most of their cells.
 */
export function csvText(s: string): string {
  const c = s.charCodeAt(0);
  if (c === 61 || c === 64 || c === 9 || c === 13 || c === 43 || c === 45) return csvField(s);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(QUOTES, '""')}"` : s;
}

/** One row as a CSV line with its CRLF. */
export function csvLine(row: readonly Cell[]): string {
  let line = '';
  for (let i = 0; i < row.length; i++) line += i === 0 ? csvField(row[i]) : `,${csvField(row[i])}`;
  return `${line}\r\n`;
}

/**
 * RFC 4180 rows (quoted where needed, CRLF line ends; LF for a terminal's pipes). Every CSV lims
 * writes goes through csvField, so no cell of any of them can run as a formula.
 */
export function csvRows(rows: readonly (readonly Cell[])[], opts: { lineEnd?: '\r\n' | '\n' } = {}): string {
  let text = '';
  if (opts.lineEnd === '\n') {
    for (const r of rows) text += `${csvLine(r).slice(0, -2)}\n`;
    return text;
  }
  for (const r of rows) text += csvLine(r);
  return text;
}

/** The first chunk of a CSV download: a UTF-8 BOM (so Excel reads Hindi names and accents) and the header. */
export function csvHeader(columns: readonly string[]): string {
  return `\uFEFF${csvRows([columns])}`;
}

/**
 * Passes CSV chunks through and counts the records after the header (line ends outside quotes,
 * so a multi-line allergy note is one record); `done` gets the count and whether the download ran
 * to the end, once, also when the client goes away mid-way.
 */
export async function* countedCsv(
  chunks: AsyncIterable<string> | Iterable<string>,
  done: (rows: number, complete: boolean) => Promise<void>,
): AsyncGenerator<string> {
  let records = 0;
  let quoted = false;
  let complete = false;
  try {
    for await (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c === 34 /* " */) quoted = !quoted;
        else if (c === 10 /* \n */ && !quoted) records++;
      }
      yield chunk;
    }
    complete = true;
  } finally {
    await done(Math.max(0, records - 1), complete);
  }
}
