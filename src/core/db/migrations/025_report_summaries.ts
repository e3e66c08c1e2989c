import { toPostgres } from '../dialect.js';

/**
 * Summaries the reports read on a year of a busy lab, kept exact by triggers in the same
 * transaction as every write to bills, bill lines, samples, their tests and results (the server's
 * services, imports, the CLI alike), and filled from the existing rows here.
 *
 * - report_billed_daily: lines of live (not cancelled) bills per UTC day of the bill and catalogue
 *   item: revenue by test and category.
 * - report_workload_daily: tests ordered per UTC day of the sample (collected, else ordered) and
 *   test: ordered, on collected samples, resulted, verified, on rejected samples.
 * - report_slots: per 15-minute UTC slot: samples collected (and rejected), results verified, what
 *   live bills charged. Every time zone's offset is a whole number of quarter hours, so the slots
 *   add up to any lab day exactly.
 *
 * Readers add the whole UTC days inside a period from the summary and the partial days at its
 * edges from the rows (src/core/reports/summary.ts). A row that falls to zero stays (lines = 0);
 * readers leave such rows out.
 */

const DAY = (x: string) => `substr(${x}, 1, 10)`;
const SLOT = (x: string) =>
  `substr(${x}, 1, 14) || CASE WHEN substr(${x}, 15, 2) < '15' THEN '00' WHEN substr(${x}, 15, 2) < '30' THEN '15' WHEN substr(${x}, 15, 2) < '45' THEN '30' ELSE '45' END`;

const BILLED_KEY = 'organization_id, day, item_type, test_id, profile_id, package_id, name';
const onBilled = `ON CONFLICT (${BILLED_KEY}) DO UPDATE SET lines = report_billed_daily.lines + excluded.lines, qty = report_billed_daily.qty + excluded.qty, total_paise = report_billed_daily.total_paise + excluded.total_paise`;
const WORK_COLS = 'ordered, collected, resulted, verified, rejected';
const onWork = `ON CONFLICT (organization_id, day, test_id) DO UPDATE SET ${WORK_COLS.split(', ')
  .map((c) => `${c} = report_workload_daily.${c} + excluded.${c}`)
  .join(', ')}`;
const onSlot = (cols: string[]) =>
  `ON CONFLICT (organization_id, slot) DO UPDATE SET ${cols.map((c) => `${c} = report_slots.${c} + excluded.${c}`).join(', ')}`;
const flag = (cond: string) => `CASE WHEN ${cond} THEN 1 ELSE 0 END`;

/** One bill line R (NEW or OLD), counted with sign s when its bill is live. */
const billedLine = (R: string, s: number) => [
  `INSERT INTO report_billed_daily (${BILLED_KEY}, lines, qty, total_paise)
   SELECT b.organization_id, ${DAY('b.created_at')}, ${R}.item_type, COALESCE(${R}.test_id, 0), COALESCE(${R}.profile_id, 0), COALESCE(${R}.package_id, 0), ${R}.name, ${s}, ${s} * ${R}.qty, ${s} * ${R}.total_paise
   FROM bills b WHERE b.id = ${R}.bill_id AND b.cancelled_at IS NULL ${onBilled}`,
  `INSERT INTO report_slots (organization_id, slot, billed_paise)
   SELECT b.organization_id, ${SLOT('b.created_at')}, ${s} * ${R}.total_paise
   FROM bills b WHERE b.id = ${R}.bill_id AND b.cancelled_at IS NULL ${onSlot(['billed_paise'])}`,
];

/** All lines of bill B (NEW or OLD), counted with sign s when B is live. */
const billedBill = (B: string, s: number) => [
  `INSERT INTO report_billed_daily (${BILLED_KEY}, lines, qty, total_paise)
   SELECT ${B}.organization_id, ${DAY(`${B}.created_at`)}, i.item_type, COALESCE(i.test_id, 0), COALESCE(i.profile_id, 0), COALESCE(i.package_id, 0), i.name, ${s} * COUNT(*), ${s} * SUM(i.qty), ${s} * SUM(i.total_paise)
   FROM bill_items i WHERE i.bill_id = ${B}.id AND ${B}.cancelled_at IS NULL
   GROUP BY i.item_type, COALESCE(i.test_id, 0), COALESCE(i.profile_id, 0), COALESCE(i.package_id, 0), i.name ${onBilled}`,
  `INSERT INTO report_slots (organization_id, slot, billed_paise)
   SELECT ${B}.organization_id, ${SLOT(`${B}.created_at`)}, ${s} * SUM(i.total_paise)
   FROM bill_items i WHERE i.bill_id = ${B}.id AND ${B}.cancelled_at IS NULL GROUP BY i.bill_id ${onSlot(['billed_paise'])}`,
];

/** One ordered test R (a sample_tests row), with its sample and result, counted with sign s. */
const workTest = (R: string, s: number) => [
  `INSERT INTO report_workload_daily (organization_id, day, test_id, ${WORK_COLS})
   SELECT sa.organization_id, ${DAY('COALESCE(sa.collection_date, sa.created_at)')}, ${R}.test_id, ${s},
     ${s} * ${flag('sa.collection_date IS NOT NULL')}, ${s} * ${flag('r.result_value IS NOT NULL')},
     ${s} * ${flag("r.status = 'verified'")}, ${s} * ${flag("sa.status = 'rejected'")}
   FROM samples sa LEFT JOIN test_results r ON r.sample_id = sa.id AND r.test_id = ${R}.test_id
   WHERE sa.id = ${R}.sample_id ${onWork}`,
];

/** Every ordered test of sample S (NEW or OLD) counted with sign s, and S in its collection slot. */
const workSample = (S: string, s: number) => [
  `INSERT INTO report_workload_daily (organization_id, day, test_id, ${WORK_COLS})
   SELECT ${S}.organization_id, ${DAY(`COALESCE(${S}.collection_date, ${S}.created_at)`)}, st.test_id, ${s},
     ${s} * ${flag(`${S}.collection_date IS NOT NULL`)}, ${s} * ${flag('r.result_value IS NOT NULL')},
     ${s} * ${flag("r.status = 'verified'")}, ${s} * ${flag(`${S}.status = 'rejected'`)}
   FROM sample_tests st LEFT JOIN test_results r ON r.sample_id = st.sample_id AND r.test_id = st.test_id
   WHERE st.sample_id = ${S}.id ${onWork}`,
  sampleSlot(S, s),
];

function sampleSlot(S: string, s: number): string {
  return `INSERT INTO report_slots (organization_id, slot, samples_collected, samples_rejected)
   SELECT ${S}.organization_id, ${SLOT(`${S}.collection_date`)}, ${s}, ${s} * ${flag(`${S}.status = 'rejected'`)}
   WHERE ${S}.collection_date IS NOT NULL ${onSlot(['samples_collected', 'samples_rejected'])}`;
}

/** Result R (NEW or OLD) counted with sign s: its flags on its ordered test, its verification slot. */
const workResult = (R: string, s: number) => [
  `INSERT INTO report_workload_daily (organization_id, day, test_id, ${WORK_COLS})
   SELECT sa.organization_id, ${DAY('COALESCE(sa.collection_date, sa.created_at)')}, ${R}.test_id, 0, 0,
     ${s} * ${flag(`${R}.result_value IS NOT NULL`)}, ${s} * ${flag(`${R}.status = 'verified'`)}, 0
   FROM samples sa JOIN sample_tests st ON st.sample_id = sa.id AND st.test_id = ${R}.test_id
   WHERE sa.id = ${R}.sample_id ${onWork}`,
  `INSERT INTO report_slots (organization_id, slot, results_verified)
   SELECT ${R}.organization_id, ${SLOT(`${R}.verified_at`)}, ${s}
   WHERE ${R}.status = 'verified' AND ${R}.verified_at IS NOT NULL ${onSlot(['results_verified'])}`,
];

interface TriggerDef {
  table: string;
  /** 'AFTER INSERT' | 'AFTER UPDATE OF a, b' | 'BEFORE DELETE' ... */
  when: string;
  name: string;
  body: string[];
}

const TRIGGERS: TriggerDef[] = [
  { table: 'bill_items', when: 'AFTER INSERT', name: 'ai', body: billedLine('NEW', 1) },
  {
    table: 'bill_items',
    when: 'AFTER UPDATE',
    name: 'au',
    body: [...billedLine('OLD', -1), ...billedLine('NEW', 1)],
  },
  { table: 'bill_items', when: 'AFTER DELETE', name: 'ad', body: billedLine('OLD', -1) },
  {
    table: 'bills',
    when: 'AFTER UPDATE OF cancelled_at, created_at, organization_id',
    name: 'au',
    body: [...billedBill('OLD', -1), ...billedBill('NEW', 1)],
  },
  // Before: the lines are still there (a cascade removes them after, when their bill is gone).
  { table: 'bills', when: 'BEFORE DELETE', name: 'bd', body: billedBill('OLD', -1) },
  { table: 'sample_tests', when: 'AFTER INSERT', name: 'ai', body: workTest('NEW', 1) },
  {
    table: 'sample_tests',
    when: 'AFTER UPDATE',
    name: 'au',
    body: [...workTest('OLD', -1), ...workTest('NEW', 1)],
  },
  { table: 'sample_tests', when: 'AFTER DELETE', name: 'ad', body: workTest('OLD', -1) },
  { table: 'samples', when: 'AFTER INSERT', name: 'ai', body: [sampleSlot('NEW', 1)] },
  {
    table: 'samples',
    when: 'AFTER UPDATE OF collection_date, created_at, status, organization_id',
    name: 'au',
    body: [...workSample('OLD', -1), ...workSample('NEW', 1)],
  },
  { table: 'samples', when: 'BEFORE DELETE', name: 'bd', body: workSample('OLD', -1) },
  { table: 'test_results', when: 'AFTER INSERT', name: 'ai', body: workResult('NEW', 1) },
  {
    table: 'test_results',
    when: 'AFTER UPDATE OF result_value, status, verified_at, sample_id, test_id, organization_id',
    name: 'au',
    body: [...workResult('OLD', -1), ...workResult('NEW', 1)],
  },
  { table: 'test_results', when: 'AFTER DELETE', name: 'ad', body: workResult('OLD', -1) },
];

const tables = /* sql */ `
CREATE TABLE report_billed_daily (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  item_type TEXT NOT NULL,
  test_id INTEGER NOT NULL,
  profile_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  lines INTEGER NOT NULL DEFAULT 0,
  qty INTEGER NOT NULL DEFAULT 0,
  total_paise INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day, item_type, test_id, profile_id, package_id, name)
);
CREATE TABLE report_workload_daily (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  day TEXT NOT NULL,
  test_id INTEGER NOT NULL,
  ordered INTEGER NOT NULL DEFAULT 0,
  collected INTEGER NOT NULL DEFAULT 0,
  resulted INTEGER NOT NULL DEFAULT 0,
  verified INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, day, test_id)
);
CREATE TABLE report_slots (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  slot TEXT NOT NULL,
  samples_collected INTEGER NOT NULL DEFAULT 0,
  samples_rejected INTEGER NOT NULL DEFAULT 0,
  results_verified INTEGER NOT NULL DEFAULT 0,
  billed_paise INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, slot)
);
CREATE INDEX samples_org_collected_patient ON samples (organization_id, collection_date, patient_id);
`;

/**
 * The existing rows, summed once (the triggers keep the sums from here on); also `lims db copy`'s
 * rebuild on PostgreSQL (src/core/db/summaries.ts).
 */
export const backfill = /* sql */ `
INSERT INTO report_billed_daily (${BILLED_KEY}, lines, qty, total_paise)
SELECT b.organization_id, ${DAY('b.created_at')}, i.item_type, COALESCE(i.test_id, 0), COALESCE(i.profile_id, 0), COALESCE(i.package_id, 0), i.name, COUNT(*), SUM(i.qty), SUM(i.total_paise)
FROM bill_items i JOIN bills b ON b.id = i.bill_id WHERE b.cancelled_at IS NULL
GROUP BY b.organization_id, ${DAY('b.created_at')}, i.item_type, COALESCE(i.test_id, 0), COALESCE(i.profile_id, 0), COALESCE(i.package_id, 0), i.name;
INSERT INTO report_workload_daily (organization_id, day, test_id, ${WORK_COLS})
SELECT sa.organization_id, ${DAY('COALESCE(sa.collection_date, sa.created_at)')}, st.test_id, COUNT(*),
  SUM(${flag('sa.collection_date IS NOT NULL')}), SUM(${flag('r.result_value IS NOT NULL')}),
  SUM(${flag("r.status = 'verified'")}), SUM(${flag("sa.status = 'rejected'")})
FROM sample_tests st JOIN samples sa ON sa.id = st.sample_id
LEFT JOIN test_results r ON r.sample_id = st.sample_id AND r.test_id = st.test_id
GROUP BY sa.organization_id, ${DAY('COALESCE(sa.collection_date, sa.created_at)')}, st.test_id;
INSERT INTO report_slots (organization_id, slot, samples_collected, samples_rejected)
SELECT organization_id, ${SLOT('collection_date')}, COUNT(*), SUM(${flag("status = 'rejected'")})
FROM samples WHERE collection_date IS NOT NULL GROUP BY organization_id, ${SLOT('collection_date')};
INSERT INTO report_slots (organization_id, slot, results_verified)
SELECT organization_id, ${SLOT('verified_at')}, COUNT(*) FROM test_results
WHERE status = 'verified' AND verified_at IS NOT NULL GROUP BY organization_id, ${SLOT('verified_at')}
${onSlot(['results_verified'])};
INSERT INTO report_slots (organization_id, slot, billed_paise)
SELECT b.organization_id, ${SLOT('b.created_at')}, SUM(i.total_paise)
FROM bill_items i JOIN bills b ON b.id = i.bill_id WHERE b.cancelled_at IS NULL
GROUP BY b.organization_id, ${SLOT('b.created_at')}
${onSlot(['billed_paise'])};
`;

const sqliteTriggers = TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER report_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t.body.map((b) => `  ${b};`).join('\n')}\nEND;`,
).join('\n');

export const sql = `${tables}\n${backfill}\n${sqliteTriggers}\n`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_report_${t.table}_${t.name}`;
  const ret = t.when.startsWith('BEFORE') ? 'OLD' : 'NULL';
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN ${ret};
END $$;
CREATE TRIGGER report_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

export const postgres = `${toPostgres(tables)}\n${backfill}\n${postgresTriggers}\n`;
