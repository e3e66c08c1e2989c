import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from './connection.js';

/**
 * What differs between SQLite and PostgreSQL, kept here so that repositories and migrations are
 * written once. Repositories ask `engineOf` only through the helpers below.
 */
export type Engine = 'sqlite' | 'postgres';

/** The engine behind a Kysely instance or one of its transactions. */
export function engineOf(db: Pick<Db, 'getExecutor'>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Runs a screen's reads on one snapshot: on PostgreSQL in a read-only REPEATABLE READ transaction, so
 * its figures, its totals and its page come from the same moment even while others write (each
 * statement alone would see the commits made between them). SQLite's one connection serves every
 * request in turn and is read as it is (a transaction there would hold it across the awaits).
 */
export function onSnapshot<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (engineOf(db) !== 'postgres' || db.isTransaction) return read(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}

/**
 * Runs a big write (an import's store pass) with a larger page cache on SQLite: with the default
 * 2 MB, a transaction that grows the patients table, its indexes, its search index and the audit
 * trail at once keeps evicting pages it needs again (100,000 patients: 22 s under the write lock,
 * 15 s with 64 MB on the same machine). The connection's own size comes back afterwards, so a
 * server's connections keep their usual memory. PostgreSQL sizes its buffers itself.
 */
export async function withBigWriteCache<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (engineOf(db) !== 'sqlite') return work();
  const before = (await sql<{ cache_size: number }>`PRAGMA cache_size`.execute(db)).rows[0]?.cache_size ?? -2000;
  await sql.raw(`PRAGMA cache_size = ${BIG_WRITE_CACHE_KIB}`).execute(db);
  try {
    return await work();
  } finally {
    await sql.raw(`PRAGMA cache_size = ${Number(before)}`).execute(db);
  }
}

/** SQLite's page cache for a big write: 64 MiB (a negative cache_size is in KiB). */
const BIG_WRITE_CACHE_KIB = -65_536;

/**
 * The texts of a group's rows joined end to end in no particular order (NULLs left out; NULL for no
 * rows): one value to read instead of a row each, for readers that scan what they get.
 */
export function concatenated(db: Pick<Db, 'getExecutor'>, text: RawBuilder<string | null>): RawBuilder<string | null> {
  return engineOf(db) === 'postgres'
    ? sql<string | null>`string_agg(${text}, '')`
    : sql<string | null>`group_concat(${text}, '')`;
}

/** Minutes from one ISO-8601 text column to another (NULL when either is NULL). */
export function minutesBetween(db: Db, from: string, to: string): RawBuilder<number | null> {
  return engineOf(db) === 'postgres'
    ? sql<
        number | null
      >`(extract(epoch FROM (${sql.ref(to)})::timestamptz) - extract(epoch FROM (${sql.ref(from)})::timestamptz)) / 60.0`
    : sql<number | null>`((julianday(${sql.ref(to)}) - julianday(${sql.ref(from)})) * 1440)`;
}

/**
 * `WITH d(day, s, e) AS (VALUES ...)`: a list of lab days with their UTC bounds [s, e), to join a
 * timestamp column against (`col >= d.s AND col < d.e`) and group by d.day in one statement. On
 * PostgreSQL the bounds are text in the "C" collation, as every text column is (see toPostgres):
 * two different collations cannot be compared.
 */
export function dayBounds(db: Pick<Db, 'getExecutor'>, days: { day: string; start: string; end: string }[]) {
  const c = engineOf(db) === 'postgres' ? sql` COLLATE "C"` : sql``;
  const text = (v: string) => sql`CAST(${v} AS TEXT)${c}`;
  const rows = sql.join(days.map((d) => sql`(${text(d.day)}, ${text(d.start)}, ${text(d.end)})`));
  return sql`WITH d(day, s, e) AS (VALUES ${rows})`;
}

/**
 * A table to read through the named index. SQLite is told (`INDEXED BY`): without statistics for
 * an index made later its planner may take another and read every row; a missing index is then an
 * error, never a silent scan. PostgreSQL has no hints and plans from its statistics.
 */
export function tableUsingIndex(
  db: Pick<Db, 'getExecutor'>,
  table: string,
  index: string,
  alias?: string,
): RawBuilder<unknown> {
  const named = alias ? sql`${sql.table(table)} AS ${sql.id(alias)}` : sql`${sql.table(table)}`;
  return engineOf(db) === 'postgres' ? named : sql`${named} INDEXED BY ${sql.id(index)}`;
}

/**
 * Whether a text column holds a YYYY-MM-DD shape (digits and dashes; not whether the date exists).
 * The PostgreSQL text is migration 36's partial index condition: keep them the same, or the
 * planner no longer sees that the index answers it.
 */
export function isIsoDateText(db: Pick<Db, 'getExecutor'>, column: string): RawBuilder<boolean> {
  return engineOf(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`
    : sql<boolean>`${sql.ref(column)} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`;
}

/**
 * Aggregates over each lab day's range of an index, one correlated subquery per day: a join grouped
 * by day sorted the whole period's rows first (a year's 110,000 bills in a temporary tree on SQLite;
 * spilling to disk on PostgreSQL, about 150 ms against 95). `aggregates` are the subquery's SELECT
 * list; `rows` its FROM and WHERE, bounding each day by `d.s` and `d.e` (dayBounds). Answers every
 * day of `days` with its figures in the order given, as numbers (an empty day's sums as 0).
 * SQLite returns the subquery's one row as a JSON array (a scalar subquery has one column);
 * PostgreSQL joins it LATERAL.
 */
export async function aggregatesPerDay(
  db: Db,
  days: { day: string; start: string; end: string }[],
  aggregates: RawBuilder<unknown>[],
  rows: RawBuilder<unknown>,
): Promise<{ day: string; values: number[] }[]> {
  if (days.length === 0) return [];
  const num = (v: unknown) => Number(v ?? 0);
  if (engineOf(db) === 'postgres') {
    const named = sql.join(aggregates.map((a, i) => sql`${a} AS ${sql.id(`v${i}`)}`));
    const r = await sql<Record<string, unknown>>`${dayBounds(db, days)}
      SELECT d.day, x.* FROM d CROSS JOIN LATERAL (SELECT ${named} ${rows}) x`.execute(db);
    return r.rows.map((row) => ({ day: String(row.day), values: aggregates.map((_, i) => num(row[`v${i}`])) }));
  }
  const r = await sql<{ day: string; f: string }>`${dayBounds(db, days)}
    SELECT d.day, (SELECT json_array(${sql.join(aggregates)}) ${rows}) AS f FROM d`.execute(db);
  return r.rows.map((row) => ({ day: row.day, values: (JSON.parse(row.f) as unknown[]).map(num) }));
}

/**
 * Whether the engine groups rows only by sorting them (SQLite: a temporary b-tree; it has no hash
 * aggregate). Where an index holds each group as one range, a query per group is then faster than
 * one GROUP BY over the period; PostgreSQL hashes and is better served by the one statement.
 */
export function groupsBySorting(db: Pick<Db, 'getExecutor'>): boolean {
  return engineOf(db) === 'sqlite';
}

/**
 * Whether a statement costs no round trip (SQLite runs in the process): a primary-key look-up per
 * id on one compiled statement is then cheaper than planning an IN list; PostgreSQL pays a round
 * trip per statement and is better served by one.
 */
export function statementsAreInProcess(db: Pick<Db, 'getExecutor'>): boolean {
  return engineOf(db) === 'sqlite';
}

/**
 * The PostgreSQL text of a migration written for SQLite. The mechanical differences are translated:
 * - `id INTEGER PRIMARY KEY [AUTOINCREMENT]` becomes an identity column (explicit ids still insert,
 *   which `lims db copy` needs);
 * - INTEGER becomes BIGINT (SQLite's integers are 64-bit; the driver reads them back as numbers),
 *   REAL becomes DOUBLE PRECISION;
 * - TEXT compares byte for byte (COLLATE "C"), as SQLite's BINARY does, so sorting and ranges give
 *   the same answers on both; a `COLLATE NOCASE` column becomes CITEXT (case-insensitive equality,
 *   uniqueness and LIKE, as NOCASE);
 * - `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` and `x [NOT] GLOB 'pattern'` get their equivalents.
 * SQLite-only statements (FTS5 virtual tables, triggers) are dropped: each migration adds its
 * PostgreSQL counterparts itself. `drop` removes further statements (matched on their text).
 */
export function toPostgres(sqliteSql: string, opts: { drop?: RegExp[] } = {}): string {
  return splitStatements(sqliteSql)
    .filter((s) => !/^CREATE\s+(VIRTUAL\s+TABLE|TRIGGER)\b/i.test(s))
    .filter((s) => !(opts.drop ?? []).some((re) => re.test(s)))
    .map(translateStatement)
    .join(';\n')
    .concat(';\n');
}

function translateStatement(s: string): string {
  return s
    .replace(
      /^(\s*)id INTEGER PRIMARY KEY( AUTOINCREMENT)?/gm,
      '$1id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
    )
    .replace(/\bTEXT\b([^,\n]*?)\s+COLLATE NOCASE/g, 'CITEXT$1')
    .replace(/(\w+) COLLATE NOCASE/g, '$1')
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
    .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"')
    .replace(
      /strftime\('%Y-%m-%dT%H:%M:%fZ', 'now'\)/g,
      `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    )
    .replace(/(\w+) (NOT )?GLOB '([^']*)'/g, (_m, col: string, not: string | undefined, pattern: string) => {
      return `${col} ${not ? '!~' : '~'} '${globToRegex(pattern)}'`;
    });
}

/** A GLOB pattern as an anchored POSIX regular expression (`*`, `?` and `[...]` classes). */
export function globToRegex(glob: string): string {
  let out = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 2);
      out += glob.slice(i, end + 1);
      i = end;
    } else out += /[.^$+(){}|\\]/.test(ch) ? `\\${ch}` : ch;
  }
  return `${out}$`;
}

/**
 * Statements of a SQL script: split on `;` outside strings, comments and trigger bodies
 * (`BEGIN ... END`), comments removed.
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i]!;
    if (ch === '-' && script[i + 1] === '-') {
      const nl = script.indexOf('\n', i);
      i = nl === -1 ? script.length : nl - 1;
      continue;
    }
    if (ch === "'") {
      const end = closingQuote(script, i);
      cur += script.slice(i, end + 1);
      i = end;
      continue;
    }
    if (/[A-Za-z]/.test(ch) && !/[A-Za-z0-9_]/.test(script[i - 1] ?? ' ')) {
      const word = /^[A-Za-z_]+/.exec(script.slice(i))![0];
      const upper = word.toUpperCase();
      if (upper === 'BEGIN' && /CREATE\s+TRIGGER/i.test(cur)) depth += 1;
      else if (upper === 'END' && depth > 0 && !/\bCASE\b[^;]*$/i.test(cur.slice(cur.lastIndexOf(';') + 1))) depth -= 1;
      cur += word;
      i += word.length - 1;
      continue;
    }
    if (ch === ';' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function closingQuote(s: string, start: number): number {
  let i = start + 1;
  while (i < s.length) {
    if (s[i] === "'" && s[i + 1] === "'") i += 2;
    else if (s[i] === "'") return i;
    else i += 1;
  }
  return s.length - 1;
}

/** The error a write gets when a foreign key refuses it (a row still referenced), on either engine. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** The error a write gets when a unique index refuses it (a code taken meanwhile), on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** Splits a list for IN (...) look-ups of at most `size` values. */
export function chunks<T>(xs: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/**
 * The rows of a look-up by many keys (an import's thousands of codes), read as `IN (...)` queries
 * of at most 500 keys each, the engines' limit on bound values being what it is.
 */
export async function rowsByKeys<K, R>(keys: readonly K[], read: (some: K[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const some of chunks(keys)) out.push(...(await read(some)));
  return out;
}

/**
 * Independent reads, each a function that starts one: side by side on PostgreSQL (each takes its
 * own pooled connection, and the server runs them on separate processes), one after another on
 * SQLite, whose one in-process connection runs a statement at a time; interleaving them there
 * only adds waits (a year's revenue analytics took 120 ms interleaved against 96 ms in turn).
 */
export async function readsTogether<T extends readonly (() => Promise<unknown>)[]>(
  db: Pick<Db, 'getExecutor'>,
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Out = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!statementsAreInProcess(db)) return (await Promise.all(reads.map((r) => r()))) as Out;
  const out: unknown[] = [];
  for (const r of reads) out.push(await r());
  return out as Out;
}
