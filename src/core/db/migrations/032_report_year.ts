import { toPostgres } from '../dialect.js';

/**
 * Reports on a year of a busy lab: more summaries kept by triggers in the
 * write's transaction, so a 365-day screen reads hundreds or a few thousand summary rows instead of
 * a year of rows.
 *
 * - report_ledger_daily: the payments ledger per lab day (value_date, already the lab's calendar
 *   day, stored on each payment), method and kind, counting the rows Revenue and Daily Collection
 *   count (status completed or refunded): their amount and number. Triggers on payments.
 * - report_tat_daily: migration 28's turnaround rows per UTC day of verification and whole minute
 *   (the Analytics histogram of turnaround). Triggers on report_turnaround, which itself is kept by
 *   triggers on results and samples, so every path that changes a turnaround changes this.
 * - report_doctor_daily: live (not cancelled) bills per UTC day of the bill and referring doctor
 *   (0: none): how many, their final amount and their bill discounts (/revenue's cards and doctors).
 *   Triggers on bills.
 * - Monthly roll-ups (report_billed_monthly, report_workload_monthly, report_tat_monthly,
 *   report_doctor_monthly) of the per-UTC-day summaries (migration 25's billed and workload, and
 *   report_tat_daily, report_doctor_daily): the same key
 *   with the UTC month ('YYYY-MM') for the day, kept by triggers on the daily table (each change of
 *   a daily row adds its difference to its month). A period reads its whole months from these, the
 *   whole days outside them from the daily tables and its partial days from the rows
 *   (src/core/reports/summary.ts).
 *
 * All are sums, so a row's share is taken out and put in again whatever order the rows of a
 * statement arrive in (PostgreSQL's AFTER row triggers see the statement's end). A row that falls
 * to zero stays; readers leave such rows out where a zero row would show. Backfilled here;
 * `lims db copy` rebuilds them on the target (derived), and a backup carries them with the database.
 */

interface TriggerDef {
  table: string;
  when: string;
  name: string;
  body: string[];
}

const upsert = (table: string, key: string[], cols: string[]) =>
  `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${cols.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;

// The ledger per lab day ---------------------------------------------------------------------

const LEDGER_KEY = ['organization_id', 'value_date', 'method', 'kind'];
const ledgerRow = (P: string, s: number) =>
  `INSERT INTO report_ledger_daily (${LEDGER_KEY.join(', ')}, amount_paise, n)
   SELECT ${P}.organization_id, ${P}.value_date, ${P}.method, ${P}.kind, ${s} * ${P}.amount_paise, ${s}
   WHERE ${P}.value_date IS NOT NULL AND ${P}.status IN ('completed', 'refunded')
   ${upsert('report_ledger_daily', LEDGER_KEY, ['amount_paise', 'n'])}`;

// Turnaround minutes per UTC day of verification ---------------------------------------------------

const TAT_KEY = ['organization_id', 'day', 'minutes'];
const tatRow = (R: string, s: number) =>
  `INSERT INTO report_tat_daily (${TAT_KEY.join(', ')}, n)
   SELECT ${R}.organization_id, substr(${R}.verified_at, 1, 10), ${R}.minutes, ${s}
   WHERE ${R}.verified_at IS NOT NULL
   ${upsert('report_tat_daily', TAT_KEY, ['n'])}`;

// Live bills per UTC day and referring doctor ----------------------------------------------------

const DOCTOR_KEY = ['organization_id', 'day', 'doctor_id'];
const DOCTOR_COLS = ['bills', 'final_paise', 'discount_paise'];
const doctorRow = (B: string, s: number) =>
  `INSERT INTO report_doctor_daily (${DOCTOR_KEY.join(', ')}, ${DOCTOR_COLS.join(', ')})
   SELECT ${B}.organization_id, substr(${B}.created_at, 1, 10), COALESCE(${B}.doctor_id, 0), ${s},
     ${s} * ${B}.final_amount_paise, ${s} * ${B}.discount_amount_paise
   WHERE ${B}.cancelled_at IS NULL
   ${upsert('report_doctor_daily', DOCTOR_KEY, DOCTOR_COLS)}`;

// Monthly roll-ups of daily summaries ----------------------------------------------------------------

interface Rollup {
  daily: string;
  monthly: string;
  /** Key columns besides organization_id and day, with their types. */
  key: [string, string][];
  /** Summed columns. */
  cols: string[];
}

const ROLLUPS: Rollup[] = [
  {
    daily: 'report_billed_daily',
    monthly: 'report_billed_monthly',
    key: [
      ['item_type', 'TEXT'],
      ['test_id', 'INTEGER'],
      ['profile_id', 'INTEGER'],
      ['package_id', 'INTEGER'],
      ['name', 'TEXT'],
    ],
    cols: ['lines', 'qty', 'total_paise'],
  },
  {
    daily: 'report_workload_daily',
    monthly: 'report_workload_monthly',
    key: [['test_id', 'INTEGER']],
    cols: ['ordered', 'collected', 'resulted', 'verified', 'rejected'],
  },
  { daily: 'report_tat_daily', monthly: 'report_tat_monthly', key: [['minutes', 'INTEGER']], cols: ['n'] },
  {
    daily: 'report_doctor_daily',
    monthly: 'report_doctor_monthly',
    key: [['doctor_id', 'INTEGER']],
    cols: DOCTOR_COLS,
  },
];

/** Row R (NEW or OLD) of a daily table added to its month with sign s. */
const rollupRow = (r: Rollup, R: string, s: number) => {
  const key = ['organization_id', 'month', ...r.key.map(([k]) => k)];
  return `INSERT INTO ${r.monthly} (${key.join(', ')}, ${r.cols.join(', ')})
   SELECT ${R}.organization_id, substr(${R}.day, 1, 7), ${r.key.map(([k]) => `${R}.${k}`).join(', ')}, ${r.cols
     .map((c) => `${s} * ${R}.${c}`)
     .join(', ')}
   WHERE ${R}.day IS NOT NULL
   ${upsert(r.monthly, key, r.cols)}`;
};

const signed = (table: string, prefix: string, row: (R: string, s: number) => string, updateOf = ''): TriggerDef[] => [
  { table, when: 'AFTER INSERT', name: `${prefix}_ai`, body: [row('NEW', 1)] },
  {
    table,
    when: `AFTER UPDATE${updateOf ? ` OF ${updateOf}` : ''}`,
    name: `${prefix}_au`,
    body: [row('OLD', -1), row('NEW', 1)],
  },
  { table, when: 'AFTER DELETE', name: `${prefix}_ad`, body: [row('OLD', -1)] },
];

const TRIGGERS: TriggerDef[] = [
  ...signed('payments', 'ledger', ledgerRow, 'organization_id, value_date, status, method, kind, amount_paise'),
  ...signed('report_turnaround', 'tat', tatRow),
  ...signed(
    'bills',
    'doctor',
    doctorRow,
    'organization_id, created_at, cancelled_at, doctor_id, final_amount_paise, discount_amount_paise',
  ),
  ...ROLLUPS.flatMap((r) => signed(r.daily, 'month', (R, s) => rollupRow(r, R, s))),
];

const tables = /* sql */ `
CREATE TABLE report_ledger_daily (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  value_date TEXT NOT NULL,
  method TEXT NOT NULL,
  kind TEXT NOT NULL,
  amount_paise INTEGER NOT NULL DEFAULT 0,
  n INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, value_date, method, kind)
);
CREATE TABLE report_tat_daily (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  minutes INTEGER NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day, minutes)
);
CREATE TABLE report_doctor_daily (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  doctor_id INTEGER NOT NULL,
${DOCTOR_COLS.map((c) => `  ${c} INTEGER NOT NULL DEFAULT 0,`).join('\n')}
  PRIMARY KEY (organization_id, day, doctor_id)
);
${ROLLUPS.map(
  (r) => `CREATE TABLE ${r.monthly} (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  month TEXT NOT NULL,
${r.key.map(([k, t]) => `  ${k} ${t} NOT NULL,`).join('\n')}
${r.cols.map((c) => `  ${c} INTEGER NOT NULL DEFAULT 0,`).join('\n')}
  PRIMARY KEY (organization_id, month, ${r.key.map(([k]) => k).join(', ')})
);`,
).join('\n')}
`;

/** Fills the summaries from the rows (also `lims db copy`'s rebuild on PostgreSQL, src/core/db/summaries.ts). */
export const backfill = /* sql */ `
INSERT INTO report_ledger_daily (${LEDGER_KEY.join(', ')}, amount_paise, n)
SELECT organization_id, value_date, method, kind, SUM(amount_paise), COUNT(*) FROM payments
WHERE value_date IS NOT NULL AND status IN ('completed', 'refunded')
GROUP BY organization_id, value_date, method, kind;
INSERT INTO report_tat_daily (${TAT_KEY.join(', ')}, n)
SELECT organization_id, substr(verified_at, 1, 10), minutes, COUNT(*) FROM report_turnaround
GROUP BY organization_id, substr(verified_at, 1, 10), minutes;
INSERT INTO report_doctor_daily (${DOCTOR_KEY.join(', ')}, ${DOCTOR_COLS.join(', ')})
SELECT organization_id, substr(created_at, 1, 10), COALESCE(doctor_id, 0), COUNT(*), SUM(final_amount_paise), SUM(discount_amount_paise)
FROM bills WHERE cancelled_at IS NULL
GROUP BY organization_id, substr(created_at, 1, 10), COALESCE(doctor_id, 0);
${ROLLUPS.map((r) => {
  const key = r.key.map(([k]) => k).join(', ');
  return `INSERT INTO ${r.monthly} (organization_id, month, ${key}, ${r.cols.join(', ')})
SELECT organization_id, substr(day, 1, 7), ${key}, ${r.cols.map((c) => `SUM(${c})`).join(', ')} FROM ${r.daily}
GROUP BY organization_id, substr(day, 1, 7), ${key};`;
}).join('\n')}
`;

const sqliteTriggers = TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER year_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t.body
      .map((b) => `  ${b};`)
      .join('\n')}\nEND;`,
).join('\n');

export const sql = `${tables}\n${backfill}\n${sqliteTriggers}\n`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_year_${t.table}_${t.name}`;
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN NULL;
END $$;
CREATE TRIGGER year_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

export const postgres = `${toPostgres(tables)}\n${backfill}\n${postgresTriggers}\n`;
