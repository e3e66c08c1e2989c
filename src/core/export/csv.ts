import { stringify } from 'csv-stringify/sync';

type Cell = string | number | boolean | null | undefined;

/**
 * A text a spreadsheet would run as a formula (=, @, tab, CR, or +/- not followed by a plain
 * number such as a phone number) gets a leading apostrophe, so opening an export never executes
 * what someone typed into a patient's record.
 */
export function safeCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  if (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]?[\d\s.-]+$/.test(s))) return `'${s}`;
  return s;
}

/** RFC 4180 rows (quoted where needed, CRLF line ends). */
export function csvRows(rows: readonly (readonly Cell[])[]): string {
  return stringify(
    rows.map((r) => r.map(safeCell)),
    { record_delimiter: 'windows' },
  );
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
