import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import type ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { FileRefusedError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { formatCount } from '../../../shared/count.js';
import type { ReadPosition } from './text.js';
import type { TabularFile } from './tabular.js';

/** The smallest local file header of a zip (30 bytes): a gap shorter than this cannot hide an entry. */
const LOCAL_HEADER_MIN = 30;
const MB = 1024 * 1024;

const notXlsx = (why: string) =>
  new FileRefusedError(
    `the file is not a readable .xlsx workbook (${why}); save it again from Excel as "Excel Workbook (*.xlsx)"`,
  );

/**
 * Looks inside an .xlsx (a zip) before anything unpacks it, and refuses a zip bomb: too many
 * entries, declared or actual unpacked sizes over the limits, an entry that unpacks to more than
 * LIMITS.maxXlsxRatio times its stored size, and entries that overlap or hide between the listed
 * ones (so the reader that streams the file sees exactly the entries checked here).
 */
export async function checkXlsxZip(path: string): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, validateEntrySizes: true, autoClose: false });
  } catch (err) {
    throw notXlsx((err as Error).message);
  }
  try {
    const centralDirectory = Number(zip.readEntryCursor);
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      entries.push(entry);
      if (entries.length > LIMITS.maxXlsxEntries)
        throw new FileRefusedError(
          `the workbook holds more than ${formatCount(LIMITS.maxXlsxEntries)} parts: refused as a possible zip bomb; nothing was imported`,
        );
      if (entry.isEncrypted())
        throw new FileRefusedError('the workbook is password-protected; save a copy without a password');
      if (!entry.canDecodeFileData()) throw notXlsx(`${entry.fileName} is packed in a way lims cannot read`);
      declared += entry.uncompressedSize;
      if (declared > LIMITS.maxXlsxUnpackedBytes)
        throw bomb(`unpacks to more than ${LIMITS.maxXlsxUnpackedBytes / MB} MB`);
      if (entry.uncompressedSize > MB && entry.uncompressedSize > entry.compressedSize * LIMITS.maxXlsxRatio)
        throw bomb(
          `${entry.fileName} unpacks to ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times its size`,
        );
    }
    // Every byte between the first local header and the central directory belongs to a listed entry.
    const placed: { start: number; end: number; name: string }[] = [];
    for (const entry of entries) {
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      placed.push({
        start: entry.relativeOffsetOfLocalHeader,
        end: fileDataStart + entry.compressedSize,
        name: entry.fileName,
      });
    }
    placed.sort((a, b) => a.start - b.start);
    let cursor = 0;
    for (const p of placed) {
      if (p.start < cursor) throw bomb(`${p.name} overlaps another part of the zip`);
      if (p.start - cursor >= LOCAL_HEADER_MIN) throw bomb('the zip holds data that its directory does not list');
      cursor = p.end;
    }
    if (centralDirectory - cursor >= LOCAL_HEADER_MIN)
      throw bomb('the zip holds data that its directory does not list');
    // Unpack every entry once, counting: a size that lies in the directory stops the read here.
    let unpacked = 0;
    for (const entry of entries) {
      const stream = await zip.openReadStreamPromise(entry);
      let bytes = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          unpacked += chunk.length;
          if (unpacked > LIMITS.maxXlsxUnpackedBytes)
            throw bomb(`unpacks to more than ${LIMITS.maxXlsxUnpackedBytes / MB} MB`);
          if (bytes > MB && bytes > entry.compressedSize * LIMITS.maxXlsxRatio)
            throw bomb(`${entry.fileName} unpacks to more than ${LIMITS.maxXlsxRatio} times its size`);
        }
      } catch (err) {
        stream.destroy();
        if (err instanceof FileRefusedError) throw err;
        throw bomb(`${entry.fileName}: ${(err as Error).message}`);
      }
    }
  } finally {
    zip.close();
  }
}

function bomb(why: string): FileRefusedError {
  return new FileRefusedError(`the workbook was refused as a possible zip bomb: ${why}; nothing was imported`);
}

/** A cell as lims reads it: cached values of formulas, text of rich text and links, dates as Date. */
export function cellValue(v: unknown): unknown {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'object' || v instanceof Date) return v;
  const o = v as Record<string, unknown>;
  if ('formula' in o || 'sharedFormula' in o) return 'result' in o ? cellValue(o.result) : '';
  if ('richText' in o && Array.isArray(o.richText))
    return (o.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
  if ('text' in o) return cellValue(o.text);
  if ('error' in o) return { error: String(o.error) };
  return '';
}

/**
 * The first worksheet of an .xlsx as a header (its first non-empty row) and data rows, streamed
 * (exceljs' streaming reader): formulas read as the values Excel saved with them. Rows keep the
 * numbers the sheet shows. The zip is checked first (checkXlsxZip).
 */
export async function openXlsx(path: string, position: ReadPosition): Promise<TabularFile> {
  await checkXlsxZip(path);
  const file = createReadStream(path);
  const counted = file.pipe(
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        position.bytes += chunk.length;
        done(null, chunk);
      },
    }),
  );
  // Loaded on use: exceljs is large, and most commands never read a workbook.
  const { default: Excel } = await import('exceljs');
  const reader = new Excel.stream.xlsx.WorkbookReader(counted, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const sheets = reader[Symbol.asyncIterator]() as AsyncIterator<AsyncIterable<ExcelJS.Row>>;
  const close = () => {
    file.destroy();
    counted.destroy();
  };
  let rowsOf: AsyncIterator<ExcelJS.Row>;
  try {
    const sheet = await sheets.next();
    if (sheet.done) throw notXlsx('it has no worksheet');
    rowsOf = sheet.value[Symbol.asyncIterator]();
  } catch (err) {
    close();
    if (err instanceof FileRefusedError) throw err;
    throw notXlsx((err as Error).message);
  }
  const cellsOf = (r: ExcelJS.Row): unknown[] => {
    const values = r.values as unknown[];
    if (values.length - 1 > LIMITS.maxColumns)
      throw new FileRefusedError(
        `row ${formatCount(r.number)} of the sheet has ${formatCount(values.length - 1)} columns; at most ${formatCount(LIMITS.maxColumns)} are read (is it the right file?); nothing was imported`,
      );
    const out: unknown[] = [];
    for (let i = 1; i < values.length; i++) out.push(cellValue(values[i]));
    return out;
  };
  const nextRow = async () => {
    try {
      return await rowsOf.next();
    } catch (err) {
      if (err instanceof FileRefusedError) throw err;
      throw notXlsx((err as Error).message);
    }
  };
  let header: string[] | null = null;
  let headerRow = 0;
  try {
    while (!header) {
      const r = await nextRow();
      if (r.done) throw new FileRefusedError('the first worksheet is empty: it needs a header row naming its columns');
      const cells = cellsOf(r.value);
      if (cells.every((c) => c === '')) continue;
      header = cells.map((c) => (c instanceof Date ? c.toISOString() : String(c)));
      headerRow = r.value.number;
    }
  } catch (err) {
    close();
    throw err;
  }
  async function* rows() {
    try {
      for (;;) {
        const r = await nextRow();
        if (r.done) break;
        const row = r.value.number;
        if (row - headerRow > LIMITS.maxRows)
          throw new FileRefusedError(
            `the sheet has more than ${formatCount(LIMITS.maxRows)} data rows; split it into smaller files; nothing was imported`,
          );
        yield { row, cells: cellsOf(r.value) };
      }
    } finally {
      close();
    }
  }
  return { header, rows: rows() };
}
