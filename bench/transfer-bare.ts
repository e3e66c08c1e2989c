import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/core/db/connection.js';
import { PATIENT_CSV_COLUMNS } from '../src/core/patients/export.js';
import { PATIENT_COLUMNS, PatientGenerator, type PatientValues } from './generate.js';
import { DAYS, freshLab, openLab, SEED } from './transfer-lab.js';

/** The bare baselines of import and export: the same rows written and read with no lims in between. */
export interface Timed {
  seconds: number;
  cpuSeconds: number;
}

/** This process's CPU seconds since `start` (process.cpuUsage()). */
export function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** The same rows as the CSV, inserted with one prepared statement in one transaction (SQLite) or multi-row INSERTs (PostgreSQL). */
export async function rawInsert(target: { dataDir: string; url?: string }, rows: number): Promise<Timed> {
  const { organizationId, adminId } = await freshLab(target);
  const gen = new PatientGenerator(organizationId, adminId, rows, DAYS, SEED);
  const database = await openLab(target);
  let seconds = 0;
  let cpu = 0;
  try {
    if (database.engine === 'sqlite') {
      const sqlite = database.sqlite;
      const insert = sqlite.prepare(
        `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES (${PATIENT_COLUMNS.map(() => '?').join(', ')})`,
      );
      sqlite.exec('BEGIN IMMEDIATE');
      // Rows are made outside the clock, 50,000 at a time: only the inserts are timed.
      for (let i = 0; i < rows;) {
        const chunk: PatientValues[] = [];
        for (const end = Math.min(rows, i + 50_000); i < end; i++) chunk.push(gen.row(i));
        const t = performance.now();
        const c = process.cpuUsage();
        for (const r of chunk) insert.run(r);
        seconds += performance.now() - t;
        cpu += cpuSince(c);
      }
      const t = performance.now();
      const c = process.cpuUsage();
      sqlite.exec('COMMIT');
      seconds += performance.now() - t;
      cpu += cpuSince(c);
    } else {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        const per = 500;
        const placeholders = Array.from(
          { length: per },
          (_, r) => `(${PATIENT_COLUMNS.map((__, c) => `$${r * PATIENT_COLUMNS.length + c + 1}`).join(', ')})`,
        ).join(', ');
        const text = `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES ${placeholders}`;
        await client.query('BEGIN');
        for (let i = 0; i < rows;) {
          const chunk: PatientValues[] = [];
          for (const end = Math.min(rows, i + per); i < end; i++) chunk.push(gen.row(i));
          const t = performance.now();
          const c = process.cpuUsage();
          if (chunk.length === per) await client.query({ name: 'bench_raw_patients', text, values: chunk.flat() });
          else
            await client.query(
              `INSERT INTO patients (${PATIENT_COLUMNS.join(', ')}) VALUES ${chunk
                .map(
                  (_, r) => `(${PATIENT_COLUMNS.map((__, c) => `$${r * PATIENT_COLUMNS.length + c + 1}`).join(', ')})`,
                )
                .join(', ')}`,
              chunk.flat(),
            );
          seconds += performance.now() - t;
          cpu += cpuSince(c);
        }
        const t = performance.now();
        const c = process.cpuUsage();
        await client.query('COMMIT');
        seconds += performance.now() - t;
        cpu += cpuSince(c);
      } finally {
        await client.end();
      }
    }
  } finally {
    await database.close();
  }
  // On PostgreSQL the work is the server's: this process's CPU time says nothing.
  return { seconds: seconds / 1000, cpuSeconds: database.engine === 'sqlite' ? cpu : Number.NaN };
}

/**
 * The stored columns `lims export patients` writes, in its order (the age column reads the birth date,
 * the status column is the constant it always is): the same rows and nearly the same bytes, without
 * lims' work on them (age, formula safety, the job, the audit entry).
 */
const BARE_EXPORT_COLUMNS = PATIENT_CSV_COLUMNS.map((c) =>
  c === 'patient_id' ? 'patient_code' : c === 'age' ? 'date_of_birth' : c === 'status' ? "'active'" : c,
);

const NEEDS_QUOTES = /[",\r\n]/;

/** One row of the bare export: RFC 4180 quoting where a value needs it, nothing else. */
function bareLine(r: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < r.length; i++) {
    const v = r[i];
    if (i > 0) line += ',';
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') line += String(v);
    else line += NEEDS_QUOTES.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  }
  return `${line}\r\n`;
}

/** Text gathered before each write of the bare export (one write call per this many characters). */
const BARE_WRITE_CHARS = 64 * 1024;

/**
 * A bare export: every patient row of the lab selected and written to a CSV file as it comes, as
 * fast as this stack does it honestly. SQLite: one statement in raw mode (arrays, no objects)
 * iterated, the text built in one string and written with one synchronous write per 64 KB.
 * PostgreSQL: a cursor of 1,000 rows a fetch in array mode.
 */
export async function bareExport(
  target: { dataDir: string; url?: string },
  file: string,
): Promise<Timed & { rows: number }> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let rows = 0;
  const fd = openSync(file, 'w');
  const sql = `SELECT ${BARE_EXPORT_COLUMNS.join(', ')} FROM patients WHERE organization_id = 1 ORDER BY id DESC`;
  try {
    writeSync(fd, `\uFEFF${PATIENT_CSV_COLUMNS.join(',')}\r\n`);
    if (!target.url) {
      const database = openDatabase(join(target.dataDir, 'lims.db'));
      try {
        let text = '';
        for (const r of database.sqlite!.prepare(sql).raw().iterate() as IterableIterator<unknown[]>) {
          text += bareLine(r);
          rows += 1;
          if (text.length >= BARE_WRITE_CHARS) {
            writeSync(fd, text);
            text = '';
          }
        }
        writeSync(fd, text);
      } finally {
        await database.close();
      }
    } else {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        // A cursor of 1,000 rows at a time: constant memory, as lims' export.
        await client.query('BEGIN');
        await client.query(`DECLARE bench_export NO SCROLL CURSOR FOR ${sql}`);
        for (;;) {
          const page = await client.query({ text: 'FETCH 1000 FROM bench_export', rowMode: 'array' });
          if (!page.rows.length) break;
          rows += page.rows.length;
          let text = '';
          for (const r of page.rows as unknown[][]) text += bareLine(r);
          writeSync(fd, text);
        }
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    }
  } finally {
    closeSync(fd);
  }
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: target.url ? Number.NaN : cpuSince(cpuStart),
    rows,
  };
}
