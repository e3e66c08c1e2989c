import { sql, type Transaction } from 'kysely';
import type { Database_ } from './connection.js';
import type { DB } from './schema.js';
import { patientWords, REBUILD_PREFIX_COUNTS } from './patient-search.js';
import { markEveryMinuteStale, ROLLUP_TABLES } from './rollup-stale.js';
import { REFILL_LIVE_OPEN_TESTS } from './live-open.js';

/**
 * `lims db copy`: every table of a lab from one database to another, SQLite to
 * PostgreSQL or back, ids kept. The source is read in one transaction (a consistent snapshot that
 * also holds back writers while it runs); the target is written in one transaction, so a failed
 * copy leaves it empty. Tables whose rows the database derives itself are not copied but rebuilt
 * on the target: the patient counter and the search index (SQLite's FTS5 tables by its triggers,
 * PostgreSQL's search words by lims), the live board's open tests, and the report rollups (not
 * copied: every minute with rows is marked stale, so each lab day is rebuilt from the copied rows
 * when a report first reads it).
 */

type Trx = Transaction<DB>;

/**
 * Derived on each engine from the copied rows; never copied. The live board's open tests are filled
 * on a SQLite target by their triggers as the samples and results arrive, and on a PostgreSQL
 * target from the copied rows at the end; the report rollups are marked stale on both.
 */
const DERIVED = new Set<string>([
  'entity_counts',
  'patient_search_words',
  'patient_search_prefix_counts',
  'schema_migrations',
  'live_open_tests',
  ...ROLLUP_TABLES,
  'rollup_stale',
]);
const BATCH = 500;

export interface TableInfo {
  name: string;
  /** Primary-key columns, in order. */
  key: string[];
  /** Tables this one references (its foreign keys), copied before it. */
  references: string[];
  /** An identity / integer id column whose counter must follow the copied ids (PostgreSQL). */
  identity: boolean;
}

/** The lims tables of a database, with their keys and foreign keys. */
export async function tablesOf(d: Database_, trx: Trx): Promise<TableInfo[]> {
  if (d.engine === 'sqlite') {
    const names = (
      await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'
        AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'patients_fts%' ORDER BY name`.execute(trx)
    ).rows.map((r) => r.name);
    const out: TableInfo[] = [];
    for (const name of names) {
      const cols = (
        await sql<{
          name: string;
          pk: number;
          type: string;
        }>`SELECT name, pk, type FROM pragma_table_info(${name})`.execute(trx)
      ).rows;
      const fks = (await sql<{ table: string }>`SELECT "table" FROM pragma_foreign_key_list(${name})`.execute(trx))
        .rows;
      const key = cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      out.push({
        name,
        key,
        references: [...new Set(fks.map((f) => f.table))].filter((t) => t !== name),
        identity: key.length === 1 && key[0] === 'id',
      });
    }
    return out;
  }
  const tables = (
    await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      WHERE c.relkind IN ('r', 'p') ORDER BY c.relname`.execute(trx)
  ).rows.map((r) => r.name);
  const keys = (
    await sql<{ table: string; column: string; position: number; identity: string }>`
      SELECT c.relname AS "table", a.attname AS "column", array_position(i.indkey::int2[], a.attnum) AS position,
             a.attidentity AS identity
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
       WHERE i.indisprimary`.execute(trx)
  ).rows;
  const fks = (
    await sql<{ table: string; references: string }>`
      SELECT c.relname AS "table", r.relname AS "references"
        FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_class r ON r.oid = k.confrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       WHERE k.contype = 'f'`.execute(trx)
  ).rows;
  return tables.map((name) => {
    const key = keys.filter((k) => k.table === name).sort((a, b) => Number(a.position) - Number(b.position));
    return {
      name,
      key: key.map((k) => k.column),
      references: [...new Set(fks.filter((f) => f.table === name).map((f) => f.references))].filter((t) => t !== name),
      identity: key.length === 1 && key[0]!.identity !== '',
    };
  });
}

/** Tables in an order where each comes after the tables it references. */
export function copyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: TableInfo[] = [];
  const visit = (t: TableInfo, path: Set<string>) => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const r of t.references) {
      const ref = byName.get(r);
      if (ref) visit(ref, path);
    }
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface CopyReport {
  tables: { name: string; rows: number }[];
  rebuilt: string[];
}

export class CopyRefused extends Error {}

async function countRows(trx: Trx, table: string): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(trx);
  return Number(r.rows[0]?.n ?? 0);
}

/** Copies every lims table of `source` into the empty `target` (same schema version). */
export async function copyDatabase(
  source: Database_,
  target: Database_,
  onProgress: (p: CopyProgress) => void = () => undefined,
): Promise<CopyReport> {
  const [sv, tv] = await Promise.all([schemaVersion(source), schemaVersion(target)]);
  if (sv !== tv)
    throw new CopyRefused(`the source is at schema ${sv} and the target at ${tv}: run the same lims on both`);
  const begin = (d: Database_) =>
    d.engine === 'postgres' ? d.db.transaction().setIsolationLevel('repeatable read') : d.db.transaction();
  return begin(source).execute((src) =>
    target.db.transaction().execute(async (dst) => {
      const sourceTables = await tablesOf(source, src);
      const targetTables = new Map((await tablesOf(target, dst)).map((t) => [t.name, t]));
      if (!sourceTables.some((t) => t.name === 'organizations')) throw new CopyRefused('the source holds no lims lab');
      if ((await countRows(src, 'organizations')) === 0)
        throw new CopyRefused('the source holds no lab yet (run lims setup on it first)');
      for (const t of targetTables.values()) {
        if (DERIVED.has(t.name)) continue;
        if ((await countRows(dst, t.name)) > 0) {
          throw new CopyRefused(
            `the target is not empty (table ${t.name} has rows): copy only into a new, empty database`,
          );
        }
      }
      const report: CopyReport = { tables: [], rebuilt: [] };
      // PostgreSQL's triggers are off for the copy (this transaction only): the patient counter's
      // would update one row once per copied row, inside one transaction, and every update adds a
      // row version the next one walks (quadratic). Everything they keep is derived and rebuilt
      // below; the others (the audit trail's refusal to change a row, the change notifications, the
      // rollups' stale marks, made below for every minute at once) have nothing to do while rows
      // are only inserted into a new database.
      if (target.engine === 'postgres')
        for (const t of targetTables.keys()) await sql`ALTER TABLE ${sql.table(t)} DISABLE TRIGGER USER`.execute(dst);
      for (const t of copyOrder(sourceTables)) {
        if (DERIVED.has(t.name) || !targetTables.has(t.name)) continue;
        const n = await copyTable(src, dst, t, await countRows(src, t.name), onProgress);
        report.tables.push({ name: t.name, rows: n });
        if (target.engine === 'postgres' && targetTables.get(t.name)!.identity) {
          await sql`SELECT setval(pg_get_serial_sequence(${t.name}, 'id'), coalesce((SELECT max(id) FROM ${sql.table(t.name)}), 0) + 1, false)`.execute(
            dst,
          );
        }
      }
      if (target.engine === 'postgres') {
        await sql`INSERT INTO entity_counts (organization_id, entity, n)
          SELECT organization_id, 'patients', count(*) FROM patients GROUP BY organization_id`.execute(dst);
        await rebuildSearchWords(dst);
        await sql.raw(REBUILD_PREFIX_COUNTS).execute(dst);
        report.rebuilt.push('patient search words and prefix counts');
        await sql.raw(REFILL_LIVE_OPEN_TESTS).execute(dst);
        report.rebuilt.push('live board open tests');
        for (const t of targetTables.keys()) await sql`ALTER TABLE ${sql.table(t)} ENABLE TRIGGER USER`.execute(dst);
      } else report.rebuilt.push('patient search index', 'live board open tests');
      await markEveryMinuteStale(dst);
      report.rebuilt.push('patient counters', 'report rollups (marked stale, rebuilt when first read)');
      return report;
    }),
  );
}

async function copyTable(
  src: Trx,
  dst: Trx,
  t: TableInfo,
  total: number,
  onProgress: (p: CopyProgress) => void,
): Promise<number> {
  let copied = 0;
  let lastId = Number.MIN_SAFE_INTEGER;
  onProgress({ table: t.name, copied, total });
  for (;;) {
    const table = sql.table(t.name);
    const order = sql.join((t.key.length ? t.key : ['rowid']).map((k) => sql.ref(k)));
    const batch = t.identity
      ? await sql<
          Record<string, unknown>
        >`SELECT * FROM ${table} WHERE id > ${lastId} ORDER BY id LIMIT ${BATCH}`.execute(src)
      : await sql<
          Record<string, unknown>
        >`SELECT * FROM ${table} ORDER BY ${order} LIMIT ${BATCH} OFFSET ${copied}`.execute(src);
    if (batch.rows.length === 0) break;
    const cols = Object.keys(batch.rows[0]!);
    const values = batch.rows.map((r) => sql`(${sql.join(cols.map((c) => r[c]))})`);
    await sql`INSERT INTO ${table} (${sql.join(cols.map((c) => sql.ref(c)))}) VALUES ${sql.join(values)}`.execute(dst);
    copied += batch.rows.length;
    if (t.identity) lastId = Number(batch.rows.at(-1)!.id);
    onProgress({ table: t.name, copied, total });
    if (batch.rows.length < BATCH) break;
  }
  return copied;
}

async function rebuildSearchWords(dst: Trx): Promise<void> {
  let lastId = 0;
  for (;;) {
    const patients = await dst
      .selectFrom('patients')
      .select(['id', 'organization_id', 'first_name', 'last_name', 'patient_code', 'phone', 'email'])
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (patients.length === 0) return;
    const words = patients.flatMap((p) =>
      patientWords(p).map((word) => ({ organization_id: p.organization_id, word, patient_id: p.id })),
    );
    for (let i = 0; i < words.length; i += 2000) {
      await dst
        .insertInto('patient_search_words')
        .values(words.slice(i, i + 2000))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    lastId = patients.at(-1)!.id;
  }
}

async function schemaVersion(d: Database_): Promise<number> {
  const r = await sql<{ v: number }>`SELECT max(version) AS v FROM schema_migrations`.execute(d.db);
  return Number(r.rows[0]?.v ?? 0);
}
