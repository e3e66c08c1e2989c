/**
 * Turnaround by Test on a year (issue 17, session 15): migration 28's turnaround rows counted per
 * lab, UTC month of collection ('YYYY-MM') and test, as one row holding the whole-minute histogram
 * as a JSON object ({"<minutes>": count}), kept by triggers on report_turnaround in the write's
 * transaction.
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

const sqliteRow = (R: string, s: number) => {
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

const postgresRow = (R: string, s: number) => {
  const key = `${R}.minutes::text`;
  const add = (col: string) =>
    `jsonb_set(report_tat_test_monthly.${col}, ARRAY[${key}], to_jsonb(COALESCE((report_tat_test_monthly.${col} ->> ${key})::bigint, 0) + ${s}))`;
  return `INSERT INTO report_tat_test_monthly (${KEY}, n, minutes, above)
   VALUES (${R}.organization_id, substr(${R}.collected_at, 1, 7), ${R}.test_id, ${s},
     jsonb_build_object(${key}, ${s}),
     CASE WHEN ${isAbove(R)} THEN jsonb_build_object(${key}, ${s}) ELSE '{}'::jsonb END)
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

const table = (json: string, text: string) => `
CREATE TABLE report_tat_test_monthly (
  organization_id ${json === 'TEXT' ? 'INTEGER' : 'BIGINT'} NOT NULL REFERENCES organizations(id),
  month ${text} NOT NULL,
  test_id ${json === 'TEXT' ? 'INTEGER' : 'BIGINT'} NOT NULL,
  n ${json === 'TEXT' ? 'INTEGER' : 'BIGINT'} NOT NULL DEFAULT 0,
  minutes ${json} NOT NULL,
  above ${json} NOT NULL,
  PRIMARY KEY (${KEY})
);
`;

/** The backfill: each (lab, month, test)'s counts per minute, as a JSON object. */
const backfill = (object: string, text: string) => `
INSERT INTO report_tat_test_monthly (${KEY}, n, minutes, above)
SELECT organization_id, month, test_id, SUM(n),
  ${object}(CAST(minutes AS ${text}), n),
  COALESCE(${object}(CAST(minutes AS ${text}), above) FILTER (WHERE above > 0), ${object === 'json_group_object' ? `'{}'` : `'{}'::jsonb`})
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
      .map(([R, s]) => `  ${sqliteRow(R, s)};`)
      .join('\n')}\nEND;`,
).join('\n');

export const sql = `${table('TEXT', 'TEXT')}\n${backfill('json_group_object', 'TEXT')}\n${sqliteTriggers}\n`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_tat_test_${t.name}`;
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.rows.map(([R, s]) => `  ${postgresRow(R, s)};`).join('\n')}
  RETURN NULL;
END $$;
CREATE TRIGGER tat_test_${t.name} ${t.when} ON report_turnaround FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

export const postgres = `${table('JSONB', 'TEXT COLLATE "C"')}\n${backfill('jsonb_object_agg', 'TEXT')}\n${postgresTriggers}\n`;
