import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WRITE_LOCK_KEY } from '../src/core/db/postgres.js';
import { GENESIS_HASH } from '../src/core/audit/audit.js';
import { patientWords, wordPrefixes } from '../src/core/db/patient-search.js';
import { PATIENT_COLUMNS, PatientGenerator, type PatientValues } from './generate.js';
import { percentile } from './load.js';
import { ensureImportCsv, runCli } from './transfer.js';
import { freshLab, openLab } from './transfer-lab.js';

/**
 * How long an import makes another writer wait. While `lims import patients FILE.csv` runs (a child
 * process, as a person runs it), a probe process takes lims' write lock every 20 ms (lock-probe.ts)
 * and times each wait. The bare baseline is the least any all-or-nothing import of the same rows
 * can hold the lock on this engine and machine: the same patients and one audit row each (the
 * values as JSON, chained by SHA-256 to the last row of the trail) and their search index (SQLite:
 * its FTS trigger; PostgreSQL: lims' search words and prefix counts), staged beforehand and copied
 * in by ONE transaction of INSERT ... SELECT statements, measured with the same probe in the same
 * run.
 */

export const LOCK_TARGET = { ratio: 1.5 } as const;
export const LOCK_START = '<!-- import-lock:start -->';
export const LOCK_END = '<!-- import-lock:end -->';

const PROBE = fileURLToPath(new URL('./lock-probe.js', import.meta.url));
const SEED = 20261126;
const DAYS = 1100;

export interface Waits {
  takes: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LockCase {
  engine: 'sqlite' | 'postgres';
  rows: number;
  importSeconds: number;
  lims: Waits;
  bareSeconds: number;
  bare: Waits;
}

interface Target {
  dataDir: string;
  url?: string;
}

/** Starts the probe on the target and answers a function that stops it and gives its waits. */
async function startProbe(target: Target): Promise<() => Promise<Waits>> {
  const child = spawn(process.execPath, [PROBE, target.url ?? join(target.dataDir, 'lims.db')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.value !== 'ready') throw new Error(`the lock probe did not start: ${String(first.value)}`);
  return async () => {
    child.kill('SIGTERM');
    const last = await it.next();
    await once(child, 'exit');
    const waits = (JSON.parse(String(last.value)) as number[]).sort((a, b) => a - b);
    return { takes: waits.length, p50: percentile(waits, 50), p99: percentile(waits, 99), max: waits.at(-1) ?? 0 };
  };
}

const AUDIT_COLUMNS = [
  'organization_id',
  'user_id',
  'user_email',
  'action',
  'entity',
  'entity_id',
  'new_values',
  'status',
  'created_at',
  'prev_hash',
  'hash',
] as const;

/** The audit row of one new patient, chained to `prev`: the values lims' own row holds. */
function auditRow(prev: string, id: number, r: PatientValues, at: string): (string | number | null)[] {
  const values: Record<string, unknown> = { id };
  PATIENT_COLUMNS.forEach((c, i) => (values[c] = r[i]));
  const fields = [r[0], null, 'cli', 'create', 'patient', String(id), null, JSON.stringify(values), null, null];
  const hash = createHash('sha256')
    .update(JSON.stringify([prev, ...fields, 'success', at]))
    .digest('hex');
  return [r[0]!, null, 'cli', 'create', 'patient', String(id), JSON.stringify(values), 'success', at, prev, hash];
}

/**
 * The bare write: every row, with its id and its audit row (chained from the trail's last hash),
 * staged in a temporary table first; then ONE transaction holding the lock copies them in with
 * INSERT ... SELECT. Assigning ids and chaining hashes before taking the lock is only sound here,
 * with no other writer of patients or audit rows: it makes this the least time any all-or-nothing
 * write of these rows holds the lock. Answers the seconds it held it.
 */
async function bareWrite(target: Target, rows: number, organizationId: number, adminId: number): Promise<number> {
  const gen = new PatientGenerator(organizationId, adminId, rows, DAYS, SEED);
  const at = new Date().toISOString();
  const patientCols = ['id', ...PATIENT_COLUMNS];
  const database = await openLab(target);
  try {
    if (database.engine === 'sqlite') {
      const sqlite = database.sqlite;
      sqlite.exec(
        `CREATE TEMP TABLE stage_patients AS SELECT ${patientCols.join(', ')} FROM main.patients WHERE 0;
         CREATE TEMP TABLE stage_audit AS SELECT ${AUDIT_COLUMNS.join(', ')} FROM main.audit_log WHERE 0`,
      );
      const patient = sqlite.prepare(`INSERT INTO stage_patients VALUES (${patientCols.map(() => '?').join(', ')})`);
      const audit = sqlite.prepare(`INSERT INTO stage_audit VALUES (${AUDIT_COLUMNS.map(() => '?').join(', ')})`);
      let id = (sqlite.prepare('SELECT coalesce(max(id), 0) FROM main.patients').pluck().get() as number) + 1;
      let prev =
        (sqlite.prepare('SELECT hash FROM main.audit_log ORDER BY id DESC LIMIT 1').pluck().get() as
          string | undefined) ?? GENESIS_HASH;
      sqlite.transaction(() => {
        for (let i = 0; i < rows; i++, id++) {
          const r = gen.row(i);
          patient.run([id, ...r]);
          const a = auditRow(prev, id, r, at);
          audit.run(a);
          prev = a.at(-1) as string;
        }
      })();
      const cols = PATIENT_COLUMNS.join(', ');
      const t = performance.now();
      sqlite.exec(`BEGIN IMMEDIATE;
        INSERT INTO main.patients (id, ${cols}) SELECT id, ${cols} FROM stage_patients ORDER BY id;
        INSERT INTO main.audit_log (${AUDIT_COLUMNS.join(', ')}) SELECT * FROM stage_audit ORDER BY rowid;
        COMMIT`);
      return (performance.now() - t) / 1000;
    }
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    const multi = (table: string, cols: readonly string[], chunk: unknown[][]) =>
      client.query(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${chunk
          .map((_, r) => `(${cols.map((__, c) => `$${r * cols.length + c + 1}`).join(', ')})`)
          .join(', ')}`,
        chunk.flat(),
      );
    try {
      await client.query(
        `CREATE TEMP TABLE stage_patients AS SELECT ${patientCols.join(', ')} FROM patients WHERE false;
         CREATE TEMP TABLE stage_audit AS SELECT ${AUDIT_COLUMNS.join(', ')}, 0::bigint AS n FROM audit_log WHERE false;
         CREATE TEMP TABLE stage_words AS SELECT * FROM patient_search_words WHERE false`,
      );
      const prefixes = new Map<string, number>();
      let id = Number((await client.query('SELECT coalesce(max(id), 0) AS m FROM patients')).rows[0].m) + 1;
      let prev =
        ((await client.query('SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0]?.hash as
          string | undefined) ?? GENESIS_HASH;
      for (let i = 0; i < rows;) {
        const ps: unknown[][] = [];
        const as: unknown[][] = [];
        const ws: unknown[][] = [];
        for (const end = Math.min(rows, i + 500); i < end; i++, id++) {
          const r = gen.row(i);
          ps.push([id, ...r]);
          // lims' search index on PostgreSQL: the patient's words and the counts of their prefixes.
          const col = (c: (typeof PATIENT_COLUMNS)[number]) => r[PATIENT_COLUMNS.indexOf(c)] as string | null;
          const words = patientWords({
            first_name: col('first_name')!,
            last_name: col('last_name')!,
            patient_code: col('patient_code')!,
            phone: col('phone'),
            email: col('email'),
          });
          for (const w of words) ws.push([organizationId, w, id]);
          for (const prefix of wordPrefixes(words)) prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1);
          const a = auditRow(prev, id, r, at);
          as.push([...a, i]);
          prev = a.at(-1) as string;
        }
        await multi('stage_patients', patientCols, ps);
        await multi('stage_audit', [...AUDIT_COLUMNS, 'n'], as);
        await multi('stage_words', ['organization_id', 'word', 'patient_id'], ws);
      }
      await client.query('CREATE TEMP TABLE stage_prefixes AS SELECT * FROM patient_search_prefix_counts WHERE false');
      const counted = [...prefixes].map(([prefix, n]) => [organizationId, prefix, n]);
      for (let k = 0; k < counted.length; k += 2000)
        await multi('stage_prefixes', ['organization_id', 'prefix', 'n'], counted.slice(k, k + 2000));
      const cols = PATIENT_COLUMNS.join(', ');
      const t = performance.now();
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
      await client.query(`INSERT INTO patients (id, ${cols}) SELECT id, ${cols} FROM stage_patients ORDER BY id`);
      await client.query(
        `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) SELECT ${AUDIT_COLUMNS.join(', ')} FROM stage_audit ORDER BY n`,
      );
      await client.query('INSERT INTO patient_search_words SELECT * FROM stage_words');
      await client.query(
        `INSERT INTO patient_search_prefix_counts SELECT * FROM stage_prefixes
         ON CONFLICT (organization_id, prefix) DO UPDATE SET n = patient_search_prefix_counts.n + excluded.n`,
      );
      await client.query('COMMIT');
      return (performance.now() - t) / 1000;
    } finally {
      await client.end();
    }
  } finally {
    await database.close();
  }
}

export async function measureImportLock(
  dir: string,
  rowCounts: readonly number[],
  log: (l: string) => void,
  pg?: { database: (name: string) => Promise<string> },
): Promise<LockCase[]> {
  const engine = pg ? 'postgres' : 'sqlite';
  const work = join(dir, `import-lock-${engine}`);
  const out: LockCase[] = [];
  try {
    for (const rows of rowCounts) {
      const csv = await ensureImportCsv(dir, rows, log);
      const lab: Target = { dataDir: join(work, 'lab'), url: pg ? await pg.database('lims_lock') : undefined };
      const bare: Target = { dataDir: join(work, 'bare'), url: pg ? await pg.database('lims_lock_bare') : undefined };
      await freshLab(lab);
      log(`${engine}: lims import of ${rows.toLocaleString('en-IN')} patients with another writer...`);
      let stop = await startProbe(lab);
      const run = await runCli([
        '--data-dir',
        lab.dataDir,
        ...(lab.url ? ['--database-url', lab.url] : []),
        'import',
        'patients',
        csv,
      ]);
      const limsWaits = await stop();
      if (run.result.status !== 'completed' || run.result.inserted !== rows)
        throw new Error(`the import did not complete: ${JSON.stringify(run.result).slice(0, 1000)}`);
      log(`  ${run.seconds.toFixed(1)} s; the other writer waited at most ${limsWaits.max.toFixed(0)} ms`);
      const { organizationId, adminId } = await freshLab(bare);
      log(`${engine}: bare write of the same rows with the same writer...`);
      stop = await startProbe(bare);
      const bareSeconds = await bareWrite(bare, rows, organizationId, adminId);
      const bareWaits = await stop();
      log(`  ${bareSeconds.toFixed(2)} s; the other writer waited at most ${bareWaits.max.toFixed(0)} ms`);
      out.push({ engine, rows, importSeconds: run.seconds, lims: limsWaits, bareSeconds, bare: bareWaits });
    }
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const lockRatio = (c: LockCase) => c.lims.max / Math.max(c.bare.max, 1);
export const lockPasses = (c: LockCase) => lockRatio(c) <= LOCK_TARGET.ratio;

export function renderImportLock(cases: readonly LockCase[], at: Date, load: string): string {
  const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
  const lines = [
    `## Another writer during an import, ${at.toISOString()}`,
    '',
    `${load}. While \`lims import patients\` stores a file, another process takes lims' write lock every`,
    '20 ms, as a registration at the front desk does, and times each wait (bench/lock-probe.ts). Bare: the',
    'same patients and one chained audit row each, staged beforehand in a temporary table and copied in',
    'by ONE transaction of two INSERT ... SELECT statements (the least an all-or-nothing import of these',
    'rows can hold the lock), with the same probe in the same run. Target: the longest wait at most',
    `${LOCK_TARGET.ratio}x the bare one.`,
    '',
    '| engine | rows | import s | waits | p50 ms | p99 ms | longest ms | bare write s | bare longest ms | lims / bare | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...cases.map(
      (c) =>
        `| ${c.engine} | ${c.rows.toLocaleString('en-IN')} | ${c.importSeconds.toFixed(1)} | ${c.lims.takes} | ${ms(c.lims.p50)} | ${ms(c.lims.p99)} | **${ms(c.lims.max)}** | ${c.bareSeconds.toFixed(2)} | ${ms(c.bare.max)} | ${lockRatio(c).toFixed(2)}x | ${lockPasses(c) ? 'PASS' : 'FAIL'} |`,
    ),
  ];
  return lines.join('\n');
}
