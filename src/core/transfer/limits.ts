/**
 * What an import file may be. Generous for real files (a million patient rows, a whole
 * test menu, a sheet saved by Excel), small enough that a hostile file (a zip bomb, a 10,000-column
 * sheet, a 50 MB line, a JSON nested 10,000 deep) is refused before it costs memory or time.
 */
export const LIMITS = {
  /** CSV and JSON files, bytes. */
  maxFileBytes: 1024 * 1024 * 1024,
  /** XLSX files as stored (compressed), bytes. */
  maxXlsxBytes: 256 * 1024 * 1024,
  /** XLSX: all entries unpacked together, bytes. */
  maxXlsxUnpackedBytes: 2 * 1024 * 1024 * 1024,
  /** XLSX: how much larger than its stored size an entry may unpack (real sheets: 5-30 times). */
  maxXlsxRatio: 200,
  /** Entries of an XLSX zip (a workbook has a few dozen). */
  maxXlsxEntries: 10_000,
  /** Columns of a file (the widest entity has about 30; mapped files from other systems carry more). */
  maxColumns: 1_000,
  /** Characters of one record (a CSV line, a JSON record): far above a real row, far below a 50 MB line. */
  maxRecordChars: 1024 * 1024,
  /** Data rows of one file (Excel's own limit is 1,048,575 below its header). */
  maxRows: 2_000_000,
  /** JSON: the records array (1), a record (2), a list in it (3), an object in that list (4), a list in that (5). */
  maxJsonDepth: 5,
  /** Row errors shown on the terminal; all of them go to the report file. */
  shownErrors: 100,
  /** Row errors kept on the job (the screens' View Errors); all of them go to the report file. */
  keptErrors: 1_000,
  /** Characters of a cell value quoted in an error message. */
  quotedChars: 60,
} as const;

export const IMPORT_FORMATS = ['csv', 'xlsx', 'json'] as const;
export type TransferFormat = (typeof IMPORT_FORMATS)[number];

/** The format a file name says, by its extension; null when it says none of them. */
export function formatOfName(name: string): TransferFormat | null {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  const ext = m?.[1]?.toLowerCase();
  if (ext === 'csv' || ext === 'txt') return 'csv';
  if (ext === 'xlsx') return 'xlsx';
  if (ext === 'json') return 'json';
  return null;
}
