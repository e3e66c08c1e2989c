import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';

/**
 * The stale marks (rollup_stale) kept in their key alone on SQLite: a WITHOUT ROWID table is one
 * B-tree, where a rowid table with a primary key is two (the rows and the key's index). Every bill,
 * line, sample and result written marks its minute, and a new minute wrote a page of each; now it
 * writes one. The table's rows, name and key are the same, and so are the triggers that write it.
 * PostgreSQL keeps its heap and key index as they are: it has no such table kind.
 */
export const sql = '';

export function sqliteSteps(sqlite: Database.Database): void {
  rebuildTable(sqlite, 'rollup_stale', (create) => {
    if (/WITHOUT ROWID/i.test(create)) throw new Error('060: rollup_stale is already WITHOUT ROWID');
    return `${create.trimEnd()} WITHOUT ROWID`;
  });
}

export const postgres = 'SELECT 1';
