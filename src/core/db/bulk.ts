import { CompiledQuery } from 'kysely';
import type { Db } from './connection.js';
import { engineOf } from './dialect.js';

/**
 * Multi-row INSERTs of one fixed shape (the imports). SQLite: the statement text depends only on
 * the table, the columns and the number of rows, so it is built once and prepared once (the
 * connection's statement cache keys on the text); a batch goes in one statement of up to
 * ROWS_PER_STATEMENT rows, below SQLite's limit on bound parameters. PostgreSQL: the rows go as ONE
 * JSON parameter read by json_populate_recordset, which takes each column's type from the table
 * itself; a statement of thousands of bound parameters is parsed and planned afresh each time, and
 * was three to four times slower (100,000 search words: 2.5 s against 0.7 s).
 */

/** Bound parameters per statement, under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;
const ROWS_PER_STATEMENT = 500;
/** PostgreSQL: rows per JSON parameter. */
const ROWS_PER_JSON = 5_000;

const statements = new Map<string, string>();

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function statementText(
  engine: 'sqlite' | 'postgres',
  table: string,
  columns: readonly string[],
  rows: number,
  returning: readonly string[],
): string {
  const key = `${engine}|${table}|${columns.join(',')}|${rows}|${returning.join(',')}`;
  let text = statements.get(key);
  if (text) return text;
  let n = 0;
  const tuple = () => `(${columns.map(() => (engine === 'postgres' ? `$${++n}` : '?')).join(', ')})`;
  const values = Array.from({ length: rows }, tuple).join(', ');
  text = `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${values}`;
  if (returning.length) text += ` RETURNING ${returning.map(quote).join(', ')}`;
  if (statements.size > 200) statements.clear();
  statements.set(key, text);
  return text;
}

/**
 * Inserts rows (each an array of values in `columns` order; booleans as 0/1) and answers the
 * `returning` columns of the inserted rows (in no particular order: match them by a unique column).
 */
export async function insertRows<R extends Record<string, unknown> = Record<string, unknown>>(
  trx: Db,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  returning: readonly string[] = [],
): Promise<R[]> {
  const engine = engineOf(trx);
  if (engine === 'postgres') return insertJsonRows<R>(trx, table, columns, rows, returning);
  const per = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(MAX_PARAMETERS / columns.length)));
  const out: R[] = [];
  for (let start = 0; start < rows.length; start += per) {
    const chunk = rows.slice(start, start + per);
    const parameters: unknown[] = [];
    for (const r of chunk) for (const v of r) parameters.push(v);
    const result = await trx.executeQuery<R>(
      CompiledQuery.raw(statementText(engine, table, columns, chunk.length, returning), parameters),
    );
    if (returning.length) for (const r of result.rows) out.push(r);
  }
  return out;
}

/**
 * PostgreSQL's multi-row INSERT: each chunk of rows as a JSON array of objects. A value goes as its
 * JSON form (numbers, strings, null; booleans as 0/1 like everywhere in lims), which the column's
 * type reads as a bound parameter would be read: no lims table has a json column, where a string
 * would be stored as a JSON string instead.
 */
async function insertJsonRows<R>(
  trx: Db,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  returning: readonly string[],
): Promise<R[]> {
  const cols = columns.map(quote).join(', ');
  let text = `INSERT INTO ${quote(table)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)`;
  if (returning.length) text += ` RETURNING ${returning.map(quote).join(', ')}`;
  const out: R[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_JSON) {
    const objects = rows.slice(start, start + ROWS_PER_JSON).map((r) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) o[columns[i]!] = r[i] ?? null;
      return o;
    });
    const result = await trx.executeQuery<R>(CompiledQuery.raw(text, [JSON.stringify(objects)]));
    if (returning.length) for (const r of result.rows) out.push(r);
  }
  return out;
}
