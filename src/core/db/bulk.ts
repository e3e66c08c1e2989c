import { CompiledQuery } from 'kysely';
import type { Db } from './connection.js';
import { engineOf } from './dialect.js';

/**
 * Multi-row INSERTs of one fixed shape (the imports): the statement text depends only on the
 * table, the columns and the number of rows, so it is built once and, on SQLite, prepared once (the
 * connection's statement cache keys on the text). A batch of rows goes in one statement of up to
 * ROWS_PER_STATEMENT rows, far below both engines' limit on bound parameters.
 */

/** Bound parameters per statement, under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;
const ROWS_PER_STATEMENT = 500;

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
