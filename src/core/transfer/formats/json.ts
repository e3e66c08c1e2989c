import { FileRefusedError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { formatCount } from '../../../shared/count.js';
import { utf8Chunks, type ReadPosition } from './text.js';

/** One element of the records array: its position (1-based) and its value, or why it could not be read. */
export type JsonRecord = { row: number; value: unknown } | { row: number; invalid: string };

const WS = new Set([32, 9, 10, 13]);

/**
 * A JSON file that is an array of records, read one record at a time (constant memory on any
 * size): a scanner finds each element of the top-level array and JSON.parse reads it. Nesting
 * deeper than LIMITS.maxJsonDepth (the array, a record, a list in it, an object in that list, a list
 * in that) stops the read at once with the line, before any parser recurses into it.
 */
export async function* readJsonRecords(path: string, position: ReadPosition): AsyncGenerator<JsonRecord> {
  let state: 'start' | 'between' | 'element' | 'end' = 'start';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let pending = '';
  let line = 1;
  let elementLine = 1;
  let row = 0;
  let sawElement = false;
  const refuse = (why: string) => new FileRefusedError(`line ${formatCount(line)}: ${why}; nothing was imported`);

  for await (const text of utf8Chunks(path, position)) {
    let start = state === 'element' ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) line += 1;
      if (state === 'element') {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92 /* \ */) escaped = true;
          else if (c === 34 /* " */) inString = false;
          continue;
        }
        if (c === 34) inString = true;
        else if (c === 123 /* { */ || c === 91 /* [ */) {
          depth += 1;
          if (depth > LIMITS.maxJsonDepth)
            throw refuse(
              `the JSON is nested more than ${LIMITS.maxJsonDepth} levels deep; an import is an array of records whose fields are text, numbers, lists or lists of objects`,
            );
        } else if (c === 125 /* } */ || c === 93 /* ] */) {
          depth -= 1;
          if (depth === 0) {
            // The closing bracket of the records array right after an element.
            const body = pending + text.slice(start, i);
            yield parseElement(body, ++row, elementLine);
            pending = '';
            state = 'end';
            continue;
          }
        } else if (c === 44 /* , */ && depth === 1) {
          const body = pending + text.slice(start, i);
          yield parseElement(body, ++row, elementLine);
          pending = '';
          state = 'between';
          sawElement = false;
          continue;
        }
        if (pending.length + (i - start) > LIMITS.maxRecordChars)
          throw refuse(`a record is longer than ${formatCount(LIMITS.maxRecordChars)} characters`);
        continue;
      }
      if (WS.has(c)) continue;
      if (state === 'start') {
        if (c !== 91)
          throw refuse('a JSON import is an array of records, [ {...}, {...} ], and this file does not start with [');
        state = 'between';
        depth = 1;
        continue;
      }
      if (state === 'between') {
        if (c === 93 && !sawElement) {
          state = 'end';
          depth = 0;
          continue;
        }
        state = 'element';
        sawElement = true;
        elementLine = line;
        start = i;
        i -= 1;
        if (c === 10) line -= 1;
        continue;
      }
      // state === 'end'
      throw refuse('there is more text after the closing ] of the records array');
    }
    if (state === 'element') {
      pending += text.slice(Math.max(0, start));
      if (pending.length > LIMITS.maxRecordChars)
        throw refuse(`a record is longer than ${formatCount(LIMITS.maxRecordChars)} characters`);
    }
  }
  if (state === 'start') throw new FileRefusedError('the file is empty: a JSON import is an array of records');
  if ((state as string) !== 'end') throw refuse('the file ends before the records array is closed with ]');
}

function parseElement(body: string, row: number, line: number): JsonRecord {
  try {
    return { row, value: JSON.parse(body) as unknown };
  } catch (err) {
    return { row, invalid: `is not valid JSON (from line ${formatCount(line)}): ${(err as Error).message}` };
  }
}
