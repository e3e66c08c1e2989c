import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../src/core/db/migrate.js';
import { migrations } from '../src/core/db/migrations/index.js';

/**
 * The write cost of one visit on SQLite (a bill with 4 lines, a sample with its 4 tests, 4 results
 * entered and verified, one transaction), with the report machinery of each schema: migration 48's
 * arithmetic summary triggers ("before"), every migration's stale marks today (49's and 51's,
 * "after"), and every migration with the marking triggers dropped ("no report triggers"; the live board's open-test triggers stay
 * in every variant). Rounds alternate between the variants so that the machine's load falls on each
 * alike. Statements are prepared once and reused, as lims' statement cache does. Run:
 * node dist/bench/visit-cost.js [visits per round] [rounds].
 */

type Row = Record<string, unknown>;

/**
 * Prepared statements by SQL text, per database: lims prepares a statement once and keeps it
 * (src/core/db/statements.ts), so a write pays for running its triggers, not for compiling them
 * into the statement again each time.
 */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
function prepared(sqlite: Database.Database, text: string): Database.Statement {
  let cache = statements.get(sqlite);
  if (!cache) statements.set(sqlite, (cache = new Map()));
  let stmt = cache.get(text);
  if (!stmt) cache.set(text, (stmt = sqlite.prepare(text)));
  return stmt;
}

/** Each table's NOT NULL columns without a default, with a filler of their type (read once per table and schema). */
const required = new WeakMap<Database.Database, Map<string, Row>>();

/** A row for `table` with every NOT NULL column without a default filled, then `values` over it. */
function filled(sqlite: Database.Database, table: string, values: Row): Row {
  let tables = required.get(sqlite);
  if (!tables) required.set(sqlite, (tables = new Map()));
  let row = tables.get(table);
  if (!row) {
    const cols = sqlite
      .prepare(`SELECT name, type, "notnull" AS nn, dflt_value AS d, pk FROM pragma_table_info(?)`)
      .all(table) as { name: string; type: string; nn: number; d: unknown; pk: number }[];
    row = {};
    for (const c of cols) if (c.nn && c.d === null && !c.pk) row[c.name] = /INT|REAL/i.test(c.type) ? 0 : `x${c.name}`;
    tables.set(table, row);
  }
  return { ...row, ...values };
}

function insert(sqlite: Database.Database, table: string, values: Row): number {
  const row = filled(sqlite, table, values);
  const cols = Object.keys(row);
  const r = prepared(
    sqlite,
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
  ).run(...cols.map((c) => row[c] as never));
  return Number(r.lastInsertRowid);
}

interface Lab {
  sqlite: Database.Database;
  org: number;
  patient: number;
  tests: number[];
  n: number;
}

function openLab(file: string, upTo: number, dropMarks: boolean): Lab {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  migrate(
    sqlite,
    migrations.filter((m) => m.version <= upTo),
  );
  if (dropMarks)
    for (const { name } of sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'rollup_stale_%'")
      .all() as { name: string }[])
      sqlite.exec(`DROP TRIGGER ${name}`);
  const now = new Date().toISOString();
  const org = insert(sqlite, 'organizations', {
    name: 'Bench',
    timezone: 'Asia/Kolkata',
    created_at: now,
    updated_at: now,
  });
  const patient = insert(sqlite, 'patients', {
    organization_id: org,
    gender: 'Female',
    created_at: now,
    updated_at: now,
  });
  const tests = [1, 2, 3, 4].map((k) =>
    insert(sqlite, 'tests', {
      organization_id: org,
      name: `Test ${k}`,
      code: `T${k}`,
      price_paise: 10000,
      base_price_paise: 10000,
      created_at: now,
      updated_at: now,
    }),
  );
  return { sqlite, org, patient, tests, n: 0 };
}

function visit(lab: Lab): void {
  const { sqlite, org, patient, tests } = lab;
  lab.n += 1;
  const at = new Date(Date.UTC(2026, 0, 1) + lab.n * 137_000).toISOString();
  const later = new Date(Date.parse(at) + 3_600_000).toISOString();
  sqlite.transaction(() => {
    const bill = insert(sqlite, 'bills', {
      organization_id: org,
      bill_number: `B${lab.n}`,
      patient_id: patient,
      visit_type: 'lab_only',
      discount_percentage: 0,
      tax_percentage: 0,
      final_amount_paise: 40000,
      paid_paise: 0,
      created_at: at,
      updated_at: at,
    });
    tests.forEach((t, position) =>
      insert(sqlite, 'bill_items', {
        bill_id: bill,
        item_type: 'test',
        test_id: t,
        name: `Test ${position}`,
        qty: 1,
        unit_price_paise: 10000,
        total_paise: 10000,
        gst_percent: 0,
        discount_percent: 0,
        position,
      }),
    );
    const sample = insert(sqlite, 'samples', {
      organization_id: org,
      sample_code: `S${lab.n}`,
      patient_id: patient,
      bill_id: bill,
      sample_type: 'Blood',
      priority: 'normal',
      status: 'collected',
      collection_date: at,
      created_at: at,
      updated_at: at,
    });
    tests.forEach((t, position) => insert(sqlite, 'sample_tests', { sample_id: sample, test_id: t, position }));
    for (const t of tests) {
      const r = insert(sqlite, 'test_results', {
        organization_id: org,
        sample_id: sample,
        test_id: t,
        patient_id: patient,
        result_value: '5',
        flag: 'normal',
        status: 'completed',
        entered_at: at,
        created_at: at,
        updated_at: at,
      });
      prepared(sqlite, "UPDATE test_results SET status = 'verified', verified_at = ? WHERE id = ?").run(later, r);
    }
  })();
}

const perRound = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 4);
const latest = Math.max(...migrations.map((m) => m.version));
const dir = mkdtempSync(join(tmpdir(), 'lims-visit-cost-'));
try {
  const variants = [
    { name: 'before: arithmetic summary triggers (migration 48)', lab: openLab(join(dir, 'a.db'), 48, false), ms: 0 },
    {
      name: `after: stale marks (migrations 49 and 51, schema ${latest})`,
      lab: openLab(join(dir, 'b.db'), latest, false),
      ms: 0,
    },
    {
      name: `no report triggers (schema ${latest}, marks dropped)`,
      lab: openLab(join(dir, 'c.db'), latest, true),
      ms: 0,
    },
  ];
  for (const v of variants) for (let i = 0; i < 50; i++) visit(v.lab);
  for (let r = 0; r < rounds; r++)
    for (const v of variants) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < perRound; i++) visit(v.lab);
      v.ms += Number(process.hrtime.bigint() - t0) / 1e6;
    }
  const base = variants[2]!.ms;
  for (const v of variants)
    console.log(
      `| ${v.name} | ${(v.ms / (perRound * rounds)).toFixed(3)} | ${((v.ms / base - 1) * 100).toFixed(1)}% |`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
