import { toPostgres } from '../dialect.js';

/**
 * Report speed on a year of a busy lab.
 *
 * - Turnaround by test in whole minutes: the period's turnaround is read as a histogram of (test,
 *   minute, count) instead of every result's milliseconds. Two covering indexes of migration 28's
 *   table give it without sorting or visiting the table: a short period's rows by collection time
 *   (the old index, now with the minutes), and a long period (most of the table) walked in (test,
 *   minutes) order, so each group is complete as the index is read. `ms` stays in both for "over
 *   target", compared in milliseconds.
 * - report_discounts_daily: live bills per UTC day and the user who made them: bills, bills with a
 *   discount, line discounts, bill discounts and the total before the bill discount (Discounts
 *   Given). Kept by triggers on bills and bill lines in the write's transaction, like migration 25's
 *   summaries; a bill's contribution depends on the sum of its lines' discounts, so every trigger
 *   takes out the bill's old contribution and adds the new one.
 * - Covering indexes for the ledger by value date (Daily Collection, Revenue), for bills by
 *   creation time with the columns the revenue and referral figures read, for the patients of a
 *   period with their gender and date of birth (Patient Register), and a partial index of critical
 *   results by entry time (Critical Values, the live board).
 */

const DAY = (x: string) => `substr(${x}, 1, 10)`;
const COLS = 'bills, discounted_bills, line_paise, bill_paise, before_paise';
const onConflict = `ON CONFLICT (organization_id, day, created_by) DO UPDATE SET ${COLS.split(', ')
  .map((c) => `${c} = report_discounts_daily.${c} + excluded.${c}`)
  .join(', ')}`;
/** The current sum of bill B's line discounts. */
const lines = (billId: string) =>
  `COALESCE((SELECT SUM(li.discount_amount_paise) FROM bill_items li WHERE li.bill_id = ${billId}), 0)`;

/**
 * A bill's share with line discounts L, counted with sign s when the bill is live: B is NEW or OLD,
 * or, given `billId`, the bill looked up as b (a line's bill; none when it is being deleted).
 */
const share = (B: string, L: string, s: number, billId?: string) =>
  `INSERT INTO report_discounts_daily (organization_id, day, created_by, ${COLS})
   SELECT ${B}.organization_id, ${DAY(`${B}.created_at`)}, COALESCE(${B}.created_by, 0), ${s},
     ${s} * CASE WHEN (${L}) > 0 OR ${B}.discount_amount_paise > 0 THEN 1 ELSE 0 END,
     ${s} * (${L}), ${s} * ${B}.discount_amount_paise, ${s} * ${B}.total_before_discount_paise
   ${billId ? `FROM bills b WHERE b.id = ${billId} AND` : 'WHERE'} ${B}.cancelled_at IS NULL ${onConflict}`;

/** The share of a line's bill, its line discounts the current sum plus `adjust`. */
const billShare = (billId: string, adjust: string, s: number) =>
  share('b', `${lines('b.id')} + (${adjust})`, s, billId);

interface TriggerDef {
  table: string;
  when: string;
  name: string;
  body: string[];
}

const TRIGGERS: TriggerDef[] = [
  { table: 'bills', when: 'AFTER INSERT', name: 'ai', body: [share('NEW', lines('NEW.id'), 1)] },
  {
    table: 'bills',
    when: 'AFTER UPDATE OF cancelled_at, created_at, created_by, discount_amount_paise, total_before_discount_paise, organization_id',
    name: 'au',
    body: [share('OLD', lines('OLD.id'), -1), share('NEW', lines('NEW.id'), 1)],
  },
  // Before: the lines are still there (a cascade removes them after; their triggers then find no bill).
  { table: 'bills', when: 'BEFORE DELETE', name: 'bd', body: [share('OLD', lines('OLD.id'), -1)] },
  // A line's triggers run BEFORE the row changes, on both engines: each then sees the lines as the
  // earlier rows of the same statement left them (PostgreSQL's AFTER row triggers all see the
  // statement's end, and a bill's "discounted" flag is not a sum: a multi-row insert counted it wrong).
  {
    table: 'bill_items',
    when: 'BEFORE INSERT',
    name: 'bi',
    body: [billShare('NEW.bill_id', '0', -1), billShare('NEW.bill_id', 'NEW.discount_amount_paise', 1)],
  },
  {
    // As the old line taken out of its bill, then the new line put into its bill (the old line is
    // still in the table while this runs).
    table: 'bill_items',
    when: 'BEFORE UPDATE OF bill_id, discount_amount_paise',
    name: 'bu',
    body: [
      billShare('OLD.bill_id', '0', -1),
      billShare('OLD.bill_id', '-OLD.discount_amount_paise', 1),
      billShare('NEW.bill_id', '-CASE WHEN OLD.bill_id = NEW.bill_id THEN OLD.discount_amount_paise ELSE 0 END', -1),
      billShare(
        'NEW.bill_id',
        'NEW.discount_amount_paise - CASE WHEN OLD.bill_id = NEW.bill_id THEN OLD.discount_amount_paise ELSE 0 END',
        1,
      ),
    ],
  },
  {
    table: 'bill_items',
    when: 'BEFORE DELETE',
    name: 'bd',
    body: [billShare('OLD.bill_id', '0', -1), billShare('OLD.bill_id', '-OLD.discount_amount_paise', 1)],
  },
];

const tables = /* sql */ `
DROP INDEX report_turnaround_collected;
CREATE INDEX report_turnaround_collected ON report_turnaround (organization_id, collected_at, test_id, minutes, ms);
CREATE INDEX report_turnaround_test_minutes ON report_turnaround (organization_id, test_id, minutes, collected_at, ms);
CREATE TABLE report_discounts_daily (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  created_by INTEGER NOT NULL,
  bills INTEGER NOT NULL DEFAULT 0,
  discounted_bills INTEGER NOT NULL DEFAULT 0,
  line_paise INTEGER NOT NULL DEFAULT 0,
  bill_paise INTEGER NOT NULL DEFAULT 0,
  before_paise INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day, created_by)
);
DROP INDEX payments_org_value_date;
CREATE INDEX payments_org_value_date_ledger ON payments (organization_id, value_date, status, method, kind, amount_paise);
-- Critical results by entry time (Critical Values, the live board's not-yet-called list): a small
-- share of the results; the readers write is_critical = 1 as a literal so the planner can use it.
CREATE INDEX test_results_critical ON test_results (organization_id, entered_at) WHERE is_critical = 1;
-- The Patient Register's demographics (gender and date of birth of the period's patients) from the index alone.
DROP INDEX patients_org_created;
CREATE INDEX patients_org_created ON patients (organization_id, created_at, gender, date_of_birth);
CREATE INDEX bills_org_created_figures ON bills (organization_id, created_at, cancelled_at, doctor_id, patient_id, final_amount_paise, discount_amount_paise, paid_paise);
`;

/** Fills the summary from the rows (also `lims db copy`'s rebuild on PostgreSQL, src/core/db/summaries.ts). */
export const backfill = /* sql */ `
INSERT INTO report_discounts_daily (organization_id, day, created_by, ${COLS})
SELECT x.organization_id, ${DAY('x.created_at')}, COALESCE(x.created_by, 0), COUNT(*),
  SUM(CASE WHEN x.line_paise > 0 OR x.discount_amount_paise > 0 THEN 1 ELSE 0 END),
  SUM(x.line_paise), SUM(x.discount_amount_paise), SUM(x.total_before_discount_paise)
FROM (SELECT b.organization_id, b.created_at, b.created_by, b.discount_amount_paise, b.total_before_discount_paise,
  ${lines('b.id')} AS line_paise FROM bills b WHERE b.cancelled_at IS NULL) x
GROUP BY x.organization_id, ${DAY('x.created_at')}, COALESCE(x.created_by, 0);
`;

const sqliteTriggers = TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER discounts_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t.body
      .map((b) => `  ${b};`)
      .join('\n')}\nEND;`,
).join('\n');

export const sql = `${tables}\n${backfill}\n${sqliteTriggers}\n`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_discounts_${t.table}_${t.name}`;
  // A BEFORE row trigger lets the row through by returning it.
  const ret = !t.when.startsWith('BEFORE') ? 'NULL' : t.when.includes('DELETE') ? 'OLD' : 'NEW';
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN ${ret};
END $$;
CREATE TRIGGER discounts_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

export const postgres = `${toPostgres(tables)}\n${backfill}\n${postgresTriggers}\n`;
