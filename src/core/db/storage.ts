import { sql } from 'kysely';
import { changeStamp, type Db } from './connection.js';
import { engineOf } from './dialect.js';

/**
 * Storage used per lab (Multi-Tenant Setup): the stored size of every value of the lab's rows,
 * summed over the tables. A table with organization_id counts its rows for that lab; a table
 * without one (bill lines, a sample's tests and history, result amendments, profile contents)
 * counts through its first required reference to a table that has one. A value's size is the
 * database's own figure for it: on PostgreSQL pg_column_size (text, possibly compressed, with its
 * length header; 8 for a bigint); on SQLite the bytes of text and blobs, 8 for a number. Indexes,
 * free pages and per-row overhead are shared and not counted, nor are derived tables (counters
 * and the patient search index, which the database rebuilds from the rows).
 *
 * Every row is read (storageByOrganization below says when a measurement is reused).
 */
const DERIVED = new Set([
  'entity_counts',
  'patient_search_words',
  'patient_search_prefix_counts',
  'schema_migrations',
  'sqlite_sequence',
]);

interface TablePlan {
  table: string;
  columns: string[];
  /** How a row finds its lab: its own column, or a required reference to a table that has one. */
  via: { kind: 'own' } | { kind: 'self' } | { kind: 'parent'; column: string; parent: string; parentColumn: string };
}

interface ColumnInfo {
  table: string;
  column: string;
  required: number | boolean;
}
interface ForeignKeyInfo {
  table: string;
  column: string;
  parent: string;
  parent_column: string;
}

async function schemaOf(db: Db): Promise<{ columns: ColumnInfo[]; keys: ForeignKeyInfo[] }> {
  if (engineOf(db) === 'postgres') {
    const columns = await sql<ColumnInfo>`
      SELECT table_name AS "table", column_name AS "column", (is_nullable = 'NO') AS required
      FROM information_schema.columns c
      WHERE table_schema = current_schema()
        AND EXISTS (SELECT 1 FROM information_schema.tables t
                    WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')
      ORDER BY table_name, ordinal_position`.execute(db);
    const keys = await sql<ForeignKeyInfo>`
      SELECT cl.relname AS "table", a.attname AS "column", pcl.relname AS parent, pa.attname AS parent_column
      FROM pg_constraint con
      JOIN pg_class cl ON cl.oid = con.conrelid
      JOIN pg_class pcl ON pcl.oid = con.confrelid
      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
      JOIN pg_attribute pa ON pa.attrelid = con.confrelid AND pa.attnum = con.confkey[1]
      WHERE con.contype = 'f' AND array_length(con.conkey, 1) = 1
        AND cl.relnamespace = current_schema()::regnamespace
      ORDER BY cl.relname, con.conname`.execute(db);
    return { columns: columns.rows, keys: keys.rows };
  }
  const columns = await sql<ColumnInfo>`
    SELECT m.name AS "table", p.name AS "column", p."notnull" AS required
    FROM sqlite_master m JOIN pragma_table_info(m.name) p
    WHERE m.type = 'table' AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%'
      AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '%_fts_%'
    ORDER BY m.name, p.cid`.execute(db);
  const keys = await sql<ForeignKeyInfo>`
    SELECT m.name AS "table", f."from" AS "column", f."table" AS parent, coalesce(f."to", 'id') AS parent_column
    FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
    WHERE m.type = 'table'
    ORDER BY m.name, f.id`.execute(db);
  return { columns: columns.rows, keys: keys.rows };
}

const plans = new WeakMap<Db, Promise<TablePlan[]>>();

/** Which tables count and how each row finds its lab; read once per database (the schema changes only at start). */
function tablePlans(db: Db): Promise<TablePlan[]> {
  let p = plans.get(db);
  if (!p) {
    p = schemaOf(db).then(({ columns, keys }) => {
      const byTable = new Map<string, ColumnInfo[]>();
      for (const c of columns) {
        if (DERIVED.has(c.table)) continue;
        byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
      }
      const owned = (t: string) => byTable.get(t)?.some((c) => c.column === 'organization_id') ?? false;
      const out: TablePlan[] = [];
      for (const [table, cols] of byTable) {
        const names = cols.map((c) => c.column);
        if (table === 'organizations') out.push({ table, columns: names, via: { kind: 'self' } });
        else if (owned(table)) out.push({ table, columns: names, via: { kind: 'own' } });
        else {
          const required = new Set(cols.filter((c) => Boolean(c.required)).map((c) => c.column));
          const key = keys.find((k) => k.table === table && owned(k.parent) && required.has(k.column));
          // A table that belongs to no lab (backup runs of the whole server) is not anyone's storage.
          if (key) {
            out.push({
              table,
              columns: names,
              via: { kind: 'parent', column: key.column, parent: key.parent, parentColumn: key.parent_column },
            });
          }
        }
      }
      return out;
    });
    plans.set(db, p);
    p.catch(() => plans.delete(db));
  }
  return p;
}

function valueBytes(db: Db, alias: string, column: string) {
  const ref = sql.ref(`${alias}.${column}`);
  return engineOf(db) === 'postgres'
    ? sql`coalesce(pg_column_size(${ref}), 0)`
    : sql`CASE typeof(${ref}) WHEN 'text' THEN length(CAST(${ref} AS BLOB)) WHEN 'blob' THEN length(${ref}) WHEN 'null' THEN 0 ELSE 8 END`;
}

/** Rows per query when reading a SQLite table: better-sqlite3 runs a query without letting other requests in. */
const CHUNK_ROWS = 10_000;

type Bytes = { org: number; bytes: number }[];

async function tableBytes(db: Db, plan: TablePlan, rowids?: { from: number; to: number }): Promise<Bytes> {
  const rowBytes = sql.join(
    plan.columns.map((c) => valueBytes(db, 't', c)),
    sql` + `,
  );
  const table = sql.table(plan.table);
  const range = rowids ? sql`WHERE t.rowid > ${rowids.from} AND t.rowid <= ${rowids.to}` : sql``;
  const query =
    plan.via.kind === 'self'
      ? sql<{
          org: number;
          bytes: number;
        }>`SELECT t.id AS org, sum(${rowBytes}) AS bytes FROM ${table} AS t ${range} GROUP BY t.id`
      : plan.via.kind === 'own'
        ? sql<{
            org: number;
            bytes: number;
          }>`SELECT t.organization_id AS org, sum(${rowBytes}) AS bytes FROM ${table} AS t ${range} GROUP BY t.organization_id`
        : sql<{
            org: number;
            bytes: number;
          }>`SELECT p.organization_id AS org, sum(${rowBytes}) AS bytes FROM ${table} AS t
            JOIN ${sql.table(plan.via.parent)} AS p ON p.${sql.ref(plan.via.parentColumn)} = t.${sql.ref(plan.via.column)}
            ${range} GROUP BY p.organization_id`;
  return (await query.execute(db)).rows.map((r) => ({ org: Number(r.org), bytes: Number(r.bytes ?? 0) }));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One table's bytes per lab. On SQLite a large table is read in rowid ranges with a turn of the
 * event loop between them, so a measurement of a big database does not stall every lab's requests;
 * PostgreSQL's queries run in the database server and need no such care. A WITHOUT ROWID table (the
 * stale marks, a few rows a day per lab) has no rowid to range over and is read at once.
 */
async function measureTable(db: Db, plan: TablePlan): Promise<Bytes> {
  if (engineOf(db) === 'postgres') return tableBytes(db, plan);
  const kind = (
    await sql<{ wr: number }>`SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ${plan.table}`.execute(
      db,
    )
  ).rows[0];
  if (kind && Number(kind.wr) === 1) return tableBytes(db, plan);
  const { max } = (
    await sql<{ max: number | null }>`SELECT max(rowid) AS max FROM ${sql.table(plan.table)}`.execute(db)
  ).rows[0] ?? { max: null };
  if (max === null) return [];
  const out: Bytes = [];
  for (let from = 0; from < max; from += CHUNK_ROWS) {
    out.push(...(await tableBytes(db, plan, { from, to: from + CHUNK_ROWS })));
    await nextTurn();
  }
  return out;
}

export interface StorageMeasurement {
  /** Bytes stored for each lab (organisation id -> bytes); labs with no rows are absent. */
  bytes: Map<number, number>;
  /** When the rows were read (ISO). */
  measuredAt: string;
}

interface Remembered {
  stamp: string | null;
  at: number;
  /** The bytes measured in all: a large database is slow to measure. */
  total: number;
  result: StorageMeasurement;
}

const remembered = new WeakMap<Db, Remembered>();
const inFlight = new WeakMap<Db, Promise<StorageMeasurement>>();

export interface StorageOptions {
  /** A measurement of at least this many bytes is of a large database, slow to read again... */
  largeBytes?: number;
  /** ...and is reused for this long even though the database changed since (the answer says when it was measured). */
  reuseLargeForMs?: number;
}

/**
 * Bytes stored per lab. Measured again whenever the database changed (changeStamp), except that a
 * measurement of a large database (64 MiB of data or more: every row is read, about a second per
 * 50 MiB on SQLite) is reused for ten minutes, so opening the screen again or paging the table does
 * not read every table each time. Requests made while a measurement runs share it.
 */
export function storageByOrganization(db: Db, opts: StorageOptions = {}): Promise<StorageMeasurement> {
  const largeBytes = opts.largeBytes ?? 64 * 1024 * 1024;
  const reuseMs = opts.reuseLargeForMs ?? 10 * 60_000;
  const running = inFlight.get(db);
  if (running) return running;
  const stamp = changeStamp(db);
  const hit = remembered.get(db);
  const now = Date.now();
  if (hit && ((stamp !== null && hit.stamp === stamp) || (hit.total >= largeBytes && now - hit.at < reuseMs))) {
    return Promise.resolve(hit.result);
  }
  const result = (async () => {
    const started = Date.now();
    const bytes = new Map<number, number>();
    for (const plan of await tablePlans(db)) {
      for (const { org, bytes: b } of await measureTable(db, plan)) bytes.set(org, (bytes.get(org) ?? 0) + b);
    }
    const measured = { bytes, measuredAt: new Date(started).toISOString() };
    const total = [...bytes.values()].reduce((a, b) => a + b, 0);
    remembered.set(db, { stamp, at: started, total, result: measured });
    return measured;
  })();
  inFlight.set(db, result);
  const done = () => inFlight.delete(db);
  result.then(done, done);
  return result;
}
