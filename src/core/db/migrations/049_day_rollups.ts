/**
 * Report rollups rebuilt from a lab day's rows, in place of the summaries kept by arithmetic
 * triggers (migrations 25, 28, 30, 32, 35 and, on PostgreSQL, 38's pending tables and their folds).
 *
 * - rollup_billed, rollup_workload, rollup_turnaround, rollup_day: one row per (lab, lab day, key),
 *   each a pure function of that lab day's rows, written only by lims's rebuildDay
 *   (src/core/reports/rollups/). Nothing here computes them.
 * - rollup_stale: the UTC minutes ('YYYY-MM-DDTHH:MM') whose rows changed since their lab day was
 *   last rebuilt. The triggers below only add such a minute (INSERT ... ON CONFLICT DO NOTHING): a
 *   trigger does not know the lab's time zone, and a UTC minute lies inside exactly one lab day
 *   whatever the zone, so the reader maps each minute to its day.
 * - Every minute with rows is marked here: the first reader of a period rebuilds its days.
 *
 * The live board's open tests (migrations 31 and 37) stay as they are.
 */

/** The triggers of the old summaries on the tables that stay (the others go with their tables). */
const OLD_TRIGGERS: [table: string, name: string][] = [
  ...['ai', 'au', 'ad'].map((n) => ['bill_items', `report_bill_items_${n}`] as [string, string]),
  ['bills', 'report_bills_au'],
  ['bills', 'report_bills_bd'],
  ...['ai', 'au', 'ad'].map((n) => ['sample_tests', `report_sample_tests_${n}`] as [string, string]),
  ...['ai', 'au', 'bd'].map((n) => ['samples', `report_samples_${n}`] as [string, string]),
  ...['ai', 'au', 'ad'].map((n) => ['test_results', `report_test_results_${n}`] as [string, string]),
  ...['ai', 'au', 'ad'].map((n) => ['test_results', `turnaround_test_results_${n}`] as [string, string]),
  ['samples', 'turnaround_samples_au'],
  ['samples', 'turnaround_samples_bd'],
  ...['ai', 'au', 'bd'].map((n) => ['bills', `discounts_bills_${n}`] as [string, string]),
  ...['bi', 'bu', 'bd'].map((n) => ['bill_items', `discounts_bill_items_${n}`] as [string, string]),
  ...['ai', 'au', 'ad'].map((n) => ['payments', `year_payments_ledger_${n}`] as [string, string]),
  ...['ai', 'au', 'ad'].map((n) => ['bills', `year_bills_doctor_${n}`] as [string, string]),
];

const OLD_TABLES = [
  'report_tat_test_monthly',
  'report_billed_monthly',
  'report_workload_monthly',
  'report_tat_monthly',
  'report_doctor_monthly',
  'report_tat_daily',
  'report_doctor_daily',
  'report_ledger_daily',
  'report_discounts_daily',
  'report_turnaround',
  'report_slots',
  'report_workload_daily',
  'report_billed_daily',
];

/** PostgreSQL's functions behind the old triggers, with 38's and 35's pending tables and folds. */
const OLD_POSTGRES_FUNCTIONS = [
  ...OLD_TRIGGERS.map(([, name]) => `lims_${name}`),
  ...['ai', 'au', 'ad'].flatMap((n) => [
    `lims_year_report_turnaround_tat_${n}`,
    `lims_tat_test_${n}`,
    ...['billed', 'workload', 'tat', 'doctor'].map((t) => `lims_year_report_${t}_daily_month_${n}`),
  ]),
  ...[
    'report_billed_daily',
    'report_workload_daily',
    'report_slots',
    'report_discounts_daily',
    'report_ledger_daily',
    'report_tat_daily',
    'report_doctor_daily',
  ].map((t) => `lims_pending_${t}`),
  'lims_fold_summaries',
];
const OLD_POSTGRES_TABLES = [
  'report_fold_marker',
  'report_tat_test_pending',
  ...[
    'report_billed_daily',
    'report_workload_daily',
    'report_slots',
    'report_discounts_daily',
    'report_ledger_daily',
    'report_tat_daily',
    'report_doctor_daily',
  ].map((t) => `${t}_pending`),
];

const tables = /* sql */ `
CREATE TABLE rollup_stale (
  organization_id INTEGER NOT NULL,
  minute TEXT NOT NULL,
  PRIMARY KEY (organization_id, minute)
);
CREATE TABLE rollup_billed (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  item_type TEXT NOT NULL,
  test_id INTEGER NOT NULL,
  profile_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  lines INTEGER NOT NULL,
  qty INTEGER NOT NULL,
  total_paise INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, item_type, test_id, profile_id, package_id, name)
);
CREATE TABLE rollup_workload (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  test_id INTEGER NOT NULL,
  ordered INTEGER NOT NULL,
  collected INTEGER NOT NULL,
  resulted INTEGER NOT NULL,
  verified INTEGER NOT NULL,
  rejected INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, test_id)
);
CREATE TABLE rollup_turnaround (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  test_id INTEGER NOT NULL,
  n INTEGER NOT NULL,
  minutes TEXT NOT NULL,
  above TEXT NOT NULL,
  PRIMARY KEY (organization_id, day, test_id)
);
CREATE TABLE rollup_day (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  samples_collected INTEGER NOT NULL,
  samples_rejected INTEGER NOT NULL,
  results_verified INTEGER NOT NULL,
  tat_minutes TEXT NOT NULL,
  PRIMARY KEY (organization_id, day)
);
`;

/** Marks the UTC minute of timestamp `at` of lab `org` stale; `from` (FROM ... WHERE ...) looks them up. */
const mark = (org: string, at: string, from = '') =>
  `INSERT INTO rollup_stale (organization_id, minute) SELECT ${org}, substr(${at}, 1, 16) ${from || 'WHERE'} ${
    from ? 'AND' : ''
  } ${at} IS NOT NULL ON CONFLICT DO NOTHING`;
const billOf = (R: string) => mark('b.organization_id', 'b.created_at', `FROM bills b WHERE b.id = ${R}.bill_id`);
const sampleDay = (S: string) => `COALESCE(${S}.collection_date, ${S}.created_at)`;
const sampleOf = (R: string) => mark('s.organization_id', sampleDay('s'), `FROM samples s WHERE s.id = ${R}.sample_id`);
/** The verification minutes of a sample's results (their turnaround depends on its collection time). */
const resultsOf = (S: string) =>
  mark('r.organization_id', 'r.verified_at', `FROM test_results r WHERE r.sample_id = ${S}.id`);

interface TriggerDef {
  table: string;
  when: string;
  name: string;
  body: string[];
}

const TRIGGERS: TriggerDef[] = [
  {
    table: 'bills',
    when: 'AFTER UPDATE OF created_at, cancelled_at, organization_id',
    name: 'au',
    body: [mark('OLD.organization_id', 'OLD.created_at'), mark('NEW.organization_id', 'NEW.created_at')],
  },
  // Before: the lines' own triggers then find no bill.
  { table: 'bills', when: 'BEFORE DELETE', name: 'bd', body: [mark('OLD.organization_id', 'OLD.created_at')] },
  { table: 'bill_items', when: 'AFTER INSERT', name: 'ai', body: [billOf('NEW')] },
  {
    table: 'bill_items',
    when: 'AFTER UPDATE OF bill_id, item_type, test_id, profile_id, package_id, name, qty, total_paise',
    name: 'au',
    body: [billOf('OLD'), billOf('NEW')],
  },
  { table: 'bill_items', when: 'AFTER DELETE', name: 'ad', body: [billOf('OLD')] },
  { table: 'samples', when: 'AFTER INSERT', name: 'ai', body: [mark('NEW.organization_id', sampleDay('NEW'))] },
  {
    table: 'samples',
    when: 'AFTER UPDATE OF collection_date, created_at, status, organization_id',
    name: 'au',
    body: [
      mark('OLD.organization_id', sampleDay('OLD')),
      mark('NEW.organization_id', sampleDay('NEW')),
      resultsOf('NEW'),
    ],
  },
  // Before: its results are still there to name their minutes.
  {
    table: 'samples',
    when: 'BEFORE DELETE',
    name: 'bd',
    body: [mark('OLD.organization_id', sampleDay('OLD')), resultsOf('OLD')],
  },
  { table: 'sample_tests', when: 'AFTER INSERT', name: 'ai', body: [sampleOf('NEW')] },
  {
    table: 'sample_tests',
    when: 'AFTER UPDATE OF sample_id, test_id',
    name: 'au',
    body: [sampleOf('OLD'), sampleOf('NEW')],
  },
  { table: 'sample_tests', when: 'AFTER DELETE', name: 'ad', body: [sampleOf('OLD')] },
  {
    table: 'test_results',
    when: 'AFTER INSERT',
    name: 'ai',
    body: [sampleOf('NEW'), mark('NEW.organization_id', 'NEW.verified_at')],
  },
  {
    table: 'test_results',
    when: 'AFTER UPDATE OF result_value, status, verified_at, sample_id, test_id, organization_id',
    name: 'au',
    body: [
      sampleOf('OLD'),
      sampleOf('NEW'),
      mark('OLD.organization_id', 'OLD.verified_at'),
      mark('NEW.organization_id', 'NEW.verified_at'),
    ],
  },
  {
    table: 'test_results',
    when: 'AFTER DELETE',
    name: 'ad',
    body: [sampleOf('OLD'), mark('OLD.organization_id', 'OLD.verified_at')],
  },
];

/** Every minute that has rows, marked stale. */
const markAll = /* sql */ `
INSERT INTO rollup_stale (organization_id, minute)
SELECT organization_id, minute FROM (
  SELECT organization_id, substr(created_at, 1, 16) AS minute FROM bills
  UNION SELECT organization_id, substr(COALESCE(collection_date, created_at), 1, 16) FROM samples
  UNION SELECT organization_id, substr(verified_at, 1, 16) FROM test_results WHERE verified_at IS NOT NULL
) m WHERE true ON CONFLICT DO NOTHING;
`;

const triggerName = (t: TriggerDef) => `rollup_stale_${t.table}_${t.name}`;

const sqliteTriggers = TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER ${triggerName(t)} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t.body
      .map((b) => `  ${b};`)
      .join('\n')}\nEND;`,
).join('\n');

export const sql = `${OLD_TRIGGERS.map(([, name]) => `DROP TRIGGER ${name};`).join('\n')}
${OLD_TABLES.map((t) => `DROP TABLE ${t};`).join('\n')}
${tables}
${markAll}
${sqliteTriggers}
`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_${triggerName(t)}`;
  const ret = t.when.startsWith('BEFORE') ? 'OLD' : 'NULL';
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN ${ret};
END $$;
CREATE TRIGGER ${triggerName(t)} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

const postgresTables = tables.replace(/\bINTEGER\b/g, 'BIGINT').replace(/\bTEXT\b/g, 'TEXT COLLATE "C"');

export const postgres = `${OLD_POSTGRES_FUNCTIONS.map((f) => `DROP FUNCTION ${f}() CASCADE;`).join('\n')}
${[...OLD_POSTGRES_TABLES, ...OLD_TABLES].map((t) => `DROP TABLE ${t};`).join('\n')}
DROP FUNCTION lims_json_sum(JSON, JSON);
${postgresTables}
${markAll}
${postgresTriggers}
`;
