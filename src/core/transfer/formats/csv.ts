import { parse, CsvError } from 'csv-parse';
import { FileRefusedError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { formatCount } from '../../../shared/count.js';
import { utf8Chunks, type ReadPosition } from './text.js';
import type { TabularFile } from './tabular.js';

/** Comma or semicolon (Excel in many European locales), whichever the header line has more of outside quotes. */
export function detectDelimiter(firstLine: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') commas += 1;
    else if (!quoted && ch === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/** The end of the first line outside quotes, or -1. */
function firstLineEnd(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) quoted = !quoted;
    else if (!quoted && (ch === 10 || ch === 13)) return i;
  }
  return -1;
}

function csvProblem(err: CsvError): FileRefusedError {
  const line = (err as CsvError & { lines?: number }).lines;
  const at = line ? `line ${formatCount(line)}` : 'the file';
  switch (err.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return new FileRefusedError(
        `${at} is longer than ${formatCount(LIMITS.maxRecordChars)} characters: that is not a row of data (is it the right file?); nothing was imported`,
      );
    case 'CSV_QUOTE_NOT_CLOSED':
      return new FileRefusedError(
        `a quoted value is never closed (from ${at} to the end of the file); nothing was imported`,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return new FileRefusedError(
        `${at}: a quoted value is followed by other characters before the next separator; nothing was imported`,
      );
    default:
      return new FileRefusedError(`${at}: the CSV cannot be read (${err.message}); nothing was imported`);
  }
}

/**
 * A CSV file as a header and rows of text cells: UTF-8 with or without a byte order mark, comma or
 * semicolon separated, quoted values over several lines. Rows are numbered as a spreadsheet shows
 * the file: the header is row 1, the first data row row 2, a blank line a row of its own.
 */
export async function openCsv(path: string, position: ReadPosition): Promise<TabularFile> {
  const chunks = utf8Chunks(path, position);
  // Read up to the end of the header line to choose the separator.
  let head = '';
  for (;;) {
    if (firstLineEnd(head) !== -1) break;
    if (head.length > LIMITS.maxRecordChars)
      throw new FileRefusedError(
        `the first line is longer than ${formatCount(LIMITS.maxRecordChars)} characters: that is not a header row (is it the right file?); nothing was imported`,
      );
    const next = await chunks.next();
    if (next.done) break;
    head += next.value;
  }
  const end = firstLineEnd(head);
  const delimiter = detectDelimiter(end === -1 ? head : head.slice(0, end));
  const parser = parse({
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    max_record_size: LIMITS.maxRecordChars,
  });
  // Feed the parser from the decoded text, waiting when it is full (constant memory on any size).
  const feed = (async () => {
    const write = (text: string) =>
      new Promise<void>((resolve) => {
        if (parser.write(text)) return resolve();
        const done = () => {
          parser.off('drain', done);
          parser.off('close', done);
          resolve();
        };
        parser.on('drain', done);
        parser.on('close', done);
      });
    try {
      if (head) await write(head);
      for await (const text of chunks) {
        if (parser.destroyed) return;
        await write(text);
      }
      parser.end();
    } catch (err) {
      parser.destroy(err as Error);
    }
  })();
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const next = async (): Promise<IteratorResult<string[]>> => {
    try {
      return await iterator.next();
    } catch (err) {
      if (err instanceof CsvError) throw csvProblem(err);
      throw err;
    }
  };
  const first = await next();
  if (first.done) throw new FileRefusedError('the file is empty: it needs a header row naming its columns');
  const header = first.value;
  if (header.length > LIMITS.maxColumns)
    throw new FileRefusedError(
      `the file has ${formatCount(header.length)} columns; at most ${formatCount(LIMITS.maxColumns)} are read (is it the right file?); nothing was imported`,
    );

  async function* rows() {
    let row = 1;
    try {
      for (;;) {
        const r = await next();
        if (r.done) break;
        row += 1;
        if (row - 1 > LIMITS.maxRows)
          throw new FileRefusedError(
            `the file has more than ${formatCount(LIMITS.maxRows)} data rows; split it into smaller files; nothing was imported`,
          );
        if (r.value.length > LIMITS.maxColumns)
          throw new FileRefusedError(
            `row ${formatCount(row)} has ${formatCount(r.value.length)} values; at most ${formatCount(LIMITS.maxColumns)} columns are read; nothing was imported`,
          );
        yield { row, cells: r.value as unknown[] };
      }
      await feed;
    } finally {
      if (!parser.destroyed) parser.destroy();
      await chunks.return(undefined);
    }
  }
  return { header, rows: rows() };
}
