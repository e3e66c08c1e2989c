import type Database from 'better-sqlite3';

/**
 * Rebuilds a SQLite table with an edited definition, keeping its rows (ids included), indexes and
 * triggers: SQLite's documented way to change what ALTER TABLE cannot (drop a UNIQUE, change a
 * CHECK), https://sqlite.org/lang_altertable.html#otheralter. `edit` gets the table's current
 * CREATE TABLE text, so columns added by earlier migrations are kept whatever they are.
 *
 * Must run inside a transaction with foreign-key enforcement OFF (a migration with `sqliteSteps`:
 * the runner does both): with enforcement on, DROP TABLE would delete the rows first, cascading to
 * the tables that reference them. The runner checks every reference to and from the table before
 * it commits.
 */
export function rebuildTable(sqlite: Database.Database, table: string, edit: (createSql: string) => string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`rebuildTable: bad table name ${table}`);
  if (sqlite.pragma('foreign_keys', { simple: true }) !== 0) {
    throw new Error('rebuildTable: foreign keys must be off (run it as a migration with sqliteSteps)');
  }
  const entry = sqlite.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
    { sql: string } | undefined;
  if (!entry) throw new Error(`rebuildTable: no table ${table}`);
  // Indexes and triggers go with the old table; they are made again on the new one. Automatic
  // indexes (UNIQUE, PRIMARY KEY) have no SQL: the new definition makes its own.
  const dependents = sqlite
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL")
    .all(table) as { sql: string }[];
  const columns = (sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[])
    .map((c) => `"${c.name}"`)
    .join(', ');
  const temp = `${table}__rebuild`;
  const created = edit(entry.sql).replace(/^CREATE TABLE\s+("?)[A-Za-z0-9_]+\1/i, `CREATE TABLE "${temp}"`);
  if (!created.startsWith(`CREATE TABLE "${temp}"`)) throw new Error(`rebuildTable: cannot rename ${table}`);
  sqlite.exec(created);
  sqlite.exec(`INSERT INTO "${temp}" (${columns}) SELECT ${columns} FROM "${table}"`);
  sqlite.exec(`DROP TABLE "${table}"`);
  // Triggers of other tables that name the table (the report summaries') cannot be parsed while it
  // is gone, and a modern RENAME re-parses the whole schema; the legacy RENAME only renames, which is
  // all this needs (nothing names the temporary table).
  const legacy = sqlite.pragma('legacy_alter_table', { simple: true });
  sqlite.pragma('legacy_alter_table = ON');
  try {
    sqlite.exec(`ALTER TABLE "${temp}" RENAME TO "${table}"`);
  } finally {
    sqlite.pragma(`legacy_alter_table = ${legacy ? 'ON' : 'OFF'}`);
  }
  for (const d of dependents) sqlite.exec(d.sql);
}
