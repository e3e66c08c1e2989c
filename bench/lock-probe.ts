import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { WRITE_LOCK_KEY } from '../src/core/db/postgres.js';

/**
 * Another writer, in a process of its own: every 20 ms it takes lims' write lock and lets it go at
 * once (SQLite: BEGIN IMMEDIATE, COMMIT; PostgreSQL: the advisory lock lims' write transactions
 * take), as a registration at the front desk would, and times how long each take waited. Prints
 * "ready" once it holds a connection, and on SIGTERM one JSON line: every wait in milliseconds.
 * Usage: node lock-probe.js <lims.db path | postgres URL>
 */

const target = process.argv[2]!;
const waits: number[] = [];
let stopping = false;
process.on('SIGTERM', () => (stopping = true));

const pause = () => new Promise((r) => setTimeout(r, 20));

async function main(): Promise<void> {
  if (/^postgres(ql)?:/.test(target)) {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    process.stdout.write('ready\n');
    while (!stopping) {
      const t = performance.now();
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
      await client.query('COMMIT');
      waits.push(performance.now() - t);
      await pause();
    }
    await client.end();
  } else {
    const db = new Database(target);
    db.pragma('busy_timeout = 600000');
    process.stdout.write('ready\n');
    while (!stopping) {
      const t = performance.now();
      db.exec('BEGIN IMMEDIATE');
      db.exec('COMMIT');
      waits.push(performance.now() - t);
      await pause();
    }
    db.close();
  }
  process.stdout.write(`${JSON.stringify(waits)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`lock probe: ${(err as Error).message}\n`);
  process.exit(2);
});
