/**
 * Per lab day rollups of the money figures that a year of a busy lab made slow to read from the
 * rows: discounts per user who made the bill, the day's live bills (count, distinct patients, bill
 * discounts, final amounts, line totals) and the same per referring doctor. Like migration 49's rollups, each
 * is a pure function of its lab day's rows, written only by lims's rebuildDay
 * (src/core/reports/rollups/); no arithmetic here.
 *
 * Migration 49's triggers mark a bill's minute when its time, cancellation or lab changes and when a
 * line's total changes; these figures also read a bill's discount, gross, final amount, maker,
 * doctor and patient and a line's discount, so changes to those mark the minute too. Every minute
 * with bills is marked: the days rebuilt before this migration have no rows here yet.
 */

const tables = /* sql */ `
CREATE TABLE rollup_discounts (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  created_by INTEGER NOT NULL,
  bills INTEGER NOT NULL,
  discounted_bills INTEGER NOT NULL,
  line_paise INTEGER NOT NULL,
  bill_paise INTEGER NOT NULL,
  gross_paise INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, created_by)
);
CREATE TABLE rollup_revenue (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  bills INTEGER NOT NULL,
  patients INTEGER NOT NULL,
  discount_paise INTEGER NOT NULL,
  billed_paise INTEGER NOT NULL,
  lines_paise INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day)
);
CREATE TABLE rollup_doctor (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  doctor_id INTEGER NOT NULL,
  bills INTEGER NOT NULL,
  discount_paise INTEGER NOT NULL,
  billed_paise INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, doctor_id)
);
`;

const mark = (org: string, at: string, from = '') =>
  `INSERT INTO rollup_stale (organization_id, minute) SELECT ${org}, substr(${at}, 1, 16) ${from || 'WHERE'} ${
    from ? 'AND' : ''
  } ${at} IS NOT NULL ON CONFLICT DO NOTHING`;
const billOf = (R: string) => mark('b.organization_id', 'b.created_at', `FROM bills b WHERE b.id = ${R}.bill_id`);

const TRIGGERS = [
  {
    table: 'bills',
    when: 'AFTER UPDATE OF discount_amount_paise, total_before_discount_paise, final_amount_paise, created_by, doctor_id, patient_id',
    name: 'au_money',
    body: [mark('OLD.organization_id', 'OLD.created_at'), mark('NEW.organization_id', 'NEW.created_at')],
  },
  {
    table: 'bill_items',
    when: 'AFTER UPDATE OF discount_amount_paise',
    name: 'au_discount',
    body: [billOf('OLD'), billOf('NEW')],
  },
];

const markBills = /* sql */ `
INSERT INTO rollup_stale (organization_id, minute)
SELECT DISTINCT organization_id, substr(created_at, 1, 16) FROM bills WHERE true ON CONFLICT DO NOTHING;
`;

const triggerName = (t: (typeof TRIGGERS)[number]) => `rollup_stale_${t.table}_${t.name}`;

export const sql = `${tables}
${markBills}
${TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER ${triggerName(t)} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t.body
      .map((b) => `  ${b};`)
      .join('\n')}\nEND;`,
).join('\n')}
`;

export const postgres = `${tables.replace(/\bINTEGER\b/g, 'BIGINT').replace(/\bTEXT\b/g, 'TEXT COLLATE "C"')}
${markBills}
${TRIGGERS.map((t) => {
  const fn = `lims_${triggerName(t)}`;
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN NULL;
END $$;
CREATE TRIGGER ${triggerName(t)} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n')}
`;
