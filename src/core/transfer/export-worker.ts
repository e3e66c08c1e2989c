import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { finishPatientRow } from '../patients/service.js';
import { csvArrayLines } from './writers.js';
import type { WorkerData, ToWorker, FromWorker, RowFinish } from './parallel.js';

/**
 * One worker thread of a parallel CSV export (parallel.ts): its own connection to the SQLite file,
 * one read transaction held for the whole export (begun when the main thread holds the write lock,
 * so every worker reads the same snapshot), and for each range it is given, the range's rows as
 * CSV lines encoded to UTF-8, handed back without a copy. Loads only better-sqlite3 and the CSV
 * writer's line function, so it starts in tens of milliseconds.
 */

const data = workerData as WorkerData;
const port = parentPort!;
const send = (m: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

function finisher(f: RowFinish): (row: unknown[]) => void {
  switch (f.kind) {
    case 'patients':
      return (row) => finishPatientRow(row, f.today, f.age, f.estimated);
  }
}

/** Rows turned into text this many at a time: short-lived, so they never leave V8's young generation. */
const BATCH = 500;
/** The bytes of the last range, a guess at the next one's size. */
let lastSize = 1 << 20;

/**
 * A range's rows as CSV bytes, written into one buffer as they are read (the rows and their text
 * are garbage at once; a whole range of row arrays alive together made each worker's heap grow to
 * hundreds of MB). The buffer is handed to the main thread without a copy.
 */
function rangeBytes(index: number, rows: IterableIterator<unknown[]>, finish: (row: unknown[]) => void) {
  let buf = Buffer.allocUnsafeSlow(Math.ceil(lastSize * 1.25));
  let len = 0;
  let count = 0;
  const batch: unknown[][] = [];
  const flush = () => {
    const text = csvArrayLines(batch, data.kinds);
    batch.length = 0;
    // At most 3 bytes of UTF-8 per UTF-16 unit.
    if (len + text.length * 3 > buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, len + text.length * 3));
      buf.copy(bigger, 0, 0, len);
      buf = bigger;
    }
    len += buf.write(text, len, 'utf8');
  };
  for (const row of rows) {
    finish(row);
    batch.push(row);
    count += 1;
    if (batch.length === BATCH) flush();
  }
  if (batch.length) flush();
  lastSize = Math.max(len, 1 << 16);
  const bytes = new Uint8Array(buf.buffer, 0, len);
  return { message: { type: 'range', index, rows: count, bytes } as const, transfer: [buf.buffer as ArrayBuffer] };
}

let sqlite: Database.Database | null = null;
try {
  sqlite = new Database(data.file, { fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const db = sqlite;
  const rows = db.prepare(data.rows.sql).raw(true);
  const finish = finisher(data.finish);
  const params = [...data.rows.parameters];
  send({ type: 'open' });
  port.on('message', (m: ToWorker) => {
    try {
      if (m.type === 'begin') {
        // BEGIN is deferred: the snapshot is taken by the first read, made here at once.
        db.exec('BEGIN');
        db.prepare('SELECT count(*) FROM sqlite_schema').get();
        send({ type: 'begun' });
      } else if (m.type === 'range') {
        params[data.rows.hiAt] = m.hi;
        params[data.rows.loAt] = m.lo;
        const r = rangeBytes(m.index, rows.iterate(...params) as IterableIterator<unknown[]>, finish);
        send(r.message, r.transfer);
      } else if (m.type === 'end') {
        if (db.inTransaction) db.exec('ROLLBACK');
        db.close();
        port.close();
      }
    } catch (err) {
      fail(err);
    }
  });
} catch (err) {
  fail(err);
}

function fail(err: unknown): void {
  const e = err as Error & { code?: unknown };
  send({ type: 'error', name: e.name, message: e.message, code: typeof e.code === 'string' ? e.code : undefined });
  try {
    sqlite?.close();
  } catch {
    // already closed or broken: the main thread reports the first error
  }
  port.close();
}
