import { createReadStream } from 'node:fs';
import { FileRefusedError } from '../errors.js';
import { formatCount } from '../../../shared/count.js';

/** Where the reader stands in the file: bytes read so far (progress and ETA). */
export interface ReadPosition {
  bytes: number;
}

/** How to save a spreadsheet as UTF-8, said with every encoding refusal. */
export const SAVE_AS_UTF8 =
  'save it as UTF-8: in Excel, File > Save As > "CSV UTF-8 (Comma delimited) (*.csv)"; in LibreOffice Calc, ' +
  'Save As > Text CSV with "Edit filter settings" ticked and Character set "Unicode (UTF-8)"';

/** The byte offset of the first byte that is not valid UTF-8 (strict: no overlongs, surrogates or > U+10FFFF). */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let n: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [n, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [n, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    if (i + n >= buf.length) return i;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * Windows-1252's own characters at 0x80-0x9F (quotes, dashes, the euro sign), where Latin-1 has
 * invisible control codes. Written out here: Node's TextDecoder('windows-1252') built with small
 * ICU decodes these bytes as the control codes, so the message quoted nothing a person could see.
 */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/** What a byte reads as in Windows-1252, the usual encoding of a CSV saved by Excel on Windows. */
export function windows1252(byte: number): string {
  if (byte >= 0x80 && byte <= 0x9f) {
    const c = CP1252_HIGH[byte - 0x80]!;
    // The five bytes Windows-1252 leaves unassigned are named by their byte alone.
    return c.charCodeAt(0) < 0xa0 ? '?' : c;
  }
  return String.fromCharCode(byte);
}

/**
 * The file's text, in chunks, decoded as strict UTF-8 (a leading byte order mark is dropped). A
 * byte that is not UTF-8 stops the read with a message naming the line and how to save as UTF-8.
 */
export async function* utf8Chunks(path: string, position: ReadPosition): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let lines = 0;
  let carry: Uint8Array = new Uint8Array(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      const joined = Buffer.concat([carry, chunk]);
      const at = Math.max(0, firstInvalidUtf8(joined));
      // The carried tail of the previous chunk is already in `lines`.
      let line = lines + 1;
      for (let i = carry.length; i < at; i++) if (joined[i] === 10) line += 1;
      const byte = joined[at] ?? 0;
      throw new FileRefusedError(
        `the file is not UTF-8 text: line ${formatCount(line)} has the byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}` +
          ` (Windows-1252 reads it as "${windows1252(byte)}"), so the file was probably saved as "CSV (Comma delimited)" or in another encoding; ${SAVE_AS_UTF8}. Nothing was imported`,
      );
    }
    position.bytes += chunk.length;
    // Lines counted only for the message above: cheap next to parsing, and only up to the chunk read.
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
    carry = chunk.subarray(Math.max(0, chunk.length - 4));
    if (text) yield text;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw new FileRefusedError(`the file is not UTF-8 text: it ends in the middle of a character; ${SAVE_AS_UTF8}`);
  }
  if (rest) yield rest;
}
