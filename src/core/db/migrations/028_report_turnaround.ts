import { toPostgres } from '../dialect.js';

/**
 * The turnaround of every verified result (collection -> verification, in milliseconds and in whole
 * minutes), kept by triggers in the same transaction as every write to results and samples, with a
 * backfill. Turnaround by test and the Analytics histogram read it through covering indexes
 * instead of joining results to samples and computing the interval for every row of the period:
 * on a generated year that join took seconds. A result is here exactly when it is verified, has
 * verified_at, and its sample has a collection time; the readers give the same figures the rows
 * give (test/api/report-summaries.test.ts recomputes them after edits).
 */

/** The columns ms and minutes (ms rounded to whole minutes, halves away from zero) of an interval. */
const MS_SQLITE = (verified: string, collected: string) => {
  const ms = `CAST(round((julianday(${verified}) - julianday(${collected})) * 86400000) AS INTEGER)`;
  return `${ms}, CAST(round(${ms} / 60000.0) AS INTEGER)`;
};
const MS_POSTGRES = (verified: string, collected: string) => {
  const ms = `round(extract(epoch FROM ${verified}::timestamptz - ${collected}::timestamptz) * 1000)`;
  return `${ms}, round(${ms}::numeric / 60000)`;
};

type Ms = typeof MS_SQLITE;

/** The row of result R (NEW or OLD) when it counts. */
const insertResult = (ms: Ms, R: string) =>
  `INSERT INTO report_turnaround (result_id, organization_id, test_id, collected_at, verified_at, ms, minutes)
   SELECT ${R}.id, ${R}.organization_id, ${R}.test_id, s.collection_date, ${R}.verified_at, ${ms(`${R}.verified_at`, 's.collection_date')}
   FROM samples s WHERE s.id = ${R}.sample_id AND ${R}.status = 'verified' AND ${R}.verified_at IS NOT NULL AND s.collection_date IS NOT NULL`;

/** The rows of every result of sample S (NEW or OLD) that counts. */
const insertSample = (ms: Ms, S: string) =>
  `INSERT INTO report_turnaround (result_id, organization_id, test_id, collected_at, verified_at, ms, minutes)
   SELECT r.id, r.organization_id, r.test_id, ${S}.collection_date, r.verified_at, ${ms('r.verified_at', `${S}.collection_date`)}
   FROM test_results r WHERE r.sample_id = ${S}.id AND r.status = 'verified' AND r.verified_at IS NOT NULL AND ${S}.collection_date IS NOT NULL`;

const deleteResult = (R: string) => `DELETE FROM report_turnaround WHERE result_id = ${R}.id`;
const deleteSample = (S: string) =>
  `DELETE FROM report_turnaround WHERE result_id IN (SELECT id FROM test_results WHERE sample_id = ${S}.id)`;

interface TriggerDef {
  table: string;
  when: string;
  name: string;
  body: (ms: Ms) => string[];
}

const TRIGGERS: TriggerDef[] = [
  { table: 'test_results', when: 'AFTER INSERT', name: 'ai', body: (ms) => [insertResult(ms, 'NEW')] },
  {
    table: 'test_results',
    when: 'AFTER UPDATE OF status, verified_at, sample_id, test_id, organization_id',
    name: 'au',
    body: (ms) => [deleteResult('OLD'), insertResult(ms, 'NEW')],
  },
  { table: 'test_results', when: 'AFTER DELETE', name: 'ad', body: () => [deleteResult('OLD')] },
  {
    table: 'samples',
    when: 'AFTER UPDATE OF collection_date',
    name: 'au',
    body: (ms) => [deleteSample('NEW'), insertSample(ms, 'NEW')],
  },
  // Before: the results are still there to name the rows (a cascade removes them after).
  { table: 'samples', when: 'BEFORE DELETE', name: 'bd', body: () => [deleteSample('OLD')] },
];

const table = /* sql */ `
CREATE TABLE report_turnaround (
  result_id INTEGER NOT NULL PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  test_id INTEGER NOT NULL,
  collected_at TEXT NOT NULL,
  verified_at TEXT NOT NULL,
  ms INTEGER NOT NULL,
  minutes INTEGER NOT NULL
);
-- Turnaround by test: the period's (test, ms) by collection time.
CREATE INDEX report_turnaround_collected ON report_turnaround (organization_id, collected_at, test_id, ms);
-- The Analytics histogram per whole minute of the results verified in a period: read in minute
-- order, so it is grouped without sorting (a year's 400,000 rows sorted took over a second).
CREATE INDEX report_turnaround_minutes ON report_turnaround (organization_id, minutes, verified_at);
`;

const backfill = (ms: Ms) => `
INSERT INTO report_turnaround (result_id, organization_id, test_id, collected_at, verified_at, ms, minutes)
SELECT r.id, r.organization_id, r.test_id, s.collection_date, r.verified_at, ${ms('r.verified_at', 's.collection_date')}
FROM test_results r JOIN samples s ON s.id = r.sample_id
WHERE r.status = 'verified' AND r.verified_at IS NOT NULL AND s.collection_date IS NOT NULL;
`;

const sqliteTriggers = TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER turnaround_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t
      .body(MS_SQLITE)
      .map((b) => `  ${b};`)
      .join('\n')}\nEND;`,
).join('\n');

export const sql = `${table}\n${backfill(MS_SQLITE)}\n${sqliteTriggers}\n`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_turnaround_${t.table}_${t.name}`;
  const ret = t.when.startsWith('BEFORE') ? 'OLD' : 'NULL';
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t
  .body(MS_POSTGRES)
  .map((b) => `  ${b};`)
  .join('\n')}
  RETURN ${ret};
END $$;
CREATE TRIGGER turnaround_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

/** PostgreSQL's backfill, also `lims db copy`'s rebuild there (src/core/db/summaries.ts). */
export const postgresBackfill = backfill(MS_POSTGRES);

export const postgres = `${toPostgres(table)}\n${postgresBackfill}\n${postgresTriggers}\n`;
