/**
 * Turnaround by Test on a year (issue 17, session 15), SQLite: migration 28's turnaround rows
 * counted per lab, UTC month of collection ('YYYY-MM') and test, as one row holding the whole-minute
 * histogram as a JSON object ({"<minutes>": count}), kept by triggers on report_turnaround in the
 * write's transaction (about 20 microseconds a row).
 *
 * A year of a busy lab has about 250,000 distinct (month, test, minute) triples, most of them a
 * single result in the long tail, so a row per triple would save little against the 420,000
 * results; a row per (month, test) is about 100 a month. Turnaround by Test
 * (src/core/reports/turnaround.ts) reads a period's whole months from here and the partial months at
 * its edges from the rows, and gives exact PERCENTILE.INC figures in whole minutes.
 *
 * `above` counts, for the whole hours only (minutes a multiple of 60), the results past that minute
 * in milliseconds: a target turnaround is whole hours, so "over target" is exact from the histogram
 * and this (results on a later minute, plus those on the target's own minute past it).
 *
 * Counts are taken out and put in again with each row's change (as migration 32); a key that falls
 * to zero stays, and readers skip it. Backfilled here; `lims db copy` rebuilds it on the target
 * (derived).
 */

const KEY = 'organization_id, month, test_id';
const isAbove = (R: string) => `${R}.minutes % 60 = 0 AND ${R}.ms > ${R}.minutes * 60000`;

const row = (R: string, s: number) => {
  const path = `'$."' || ${R}.minutes || '"'`;
  const add = (col: string) =>
    `json_set(report_tat_test_monthly.${col}, ${path}, COALESCE(json_extract(report_tat_test_monthly.${col}, ${path}), 0) + ${s})`;
  return `INSERT INTO report_tat_test_monthly (${KEY}, n, minutes, above)
   SELECT ${R}.organization_id, substr(${R}.collected_at, 1, 7), ${R}.test_id, ${s},
     json_object(CAST(${R}.minutes AS TEXT), ${s}),
     CASE WHEN ${isAbove(R)} THEN json_object(CAST(${R}.minutes AS TEXT), ${s}) ELSE '{}' END
   WHERE true
   ON CONFLICT (${KEY}) DO UPDATE SET n = report_tat_test_monthly.n + excluded.n,
     minutes = ${add('minutes')},
     above = CASE WHEN ${isAbove(R)} THEN ${add('above')} ELSE report_tat_test_monthly.above END`;
};

const TRIGGERS = [
  { when: 'AFTER INSERT', name: 'ai', rows: [['NEW', 1]] as const },
  {
    when: 'AFTER UPDATE',
    name: 'au',
    rows: [
      ['OLD', -1],
      ['NEW', 1],
    ] as const,
  },
  { when: 'AFTER DELETE', name: 'ad', rows: [['OLD', -1]] as const },
];

const table = `
CREATE TABLE report_tat_test_monthly (
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  month TEXT NOT NULL,
  test_id INTEGER NOT NULL,
  n INTEGER NOT NULL DEFAULT 0,
  minutes TEXT NOT NULL,
  above TEXT NOT NULL,
  PRIMARY KEY (${KEY})
);
`;

/** The backfill: each (lab, month, test)'s counts per minute, as a JSON object. */
const backfill = `
INSERT INTO report_tat_test_monthly (${KEY}, n, minutes, above)
SELECT organization_id, month, test_id, SUM(n),
  json_group_object(CAST(minutes AS TEXT), n),
  COALESCE(json_group_object(CAST(minutes AS TEXT), above) FILTER (WHERE above > 0), '{}')
FROM (
  SELECT organization_id, substr(collected_at, 1, 7) AS month, test_id, minutes, COUNT(*) AS n,
    SUM(CASE WHEN ${isAbove('report_turnaround')} THEN 1 ELSE 0 END) AS above
  FROM report_turnaround
  GROUP BY organization_id, substr(collected_at, 1, 7), test_id, minutes
) m
GROUP BY organization_id, month, test_id;
`;

const sqliteTriggers = TRIGGERS.map(
  (t) =>
    `CREATE TRIGGER tat_test_${t.name} ${t.when} ON report_turnaround FOR EACH ROW BEGIN\n${t.rows
      .map(([R, s]) => `  ${row(R, s)};`)
      .join('\n')}\nEND;`,
).join('\n');

export const sql = `${table}\n${backfill}\n${sqliteTriggers}\n`;

/**
 * Not on PostgreSQL: there, rows written in one transaction (`lims import`, `lims db copy`) update
 * the same (month, test) row again and again, and each update walks every earlier version of it in
 * that transaction: 20,000 turnaround rows in one transaction took 15.7 s with this trigger and 1.9 s
 * without, 40,000 took 60 s (docs/decisions.md). Turnaround by Test reads the rows there.
 */
export const postgres = /* sql */ `
SELECT 1;
`;
