/**
 * Turnaround by Test on a year, SQLite: migration 28's turnaround rows
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

/** The backfill: each (lab, month, test)'s counts per minute, as a JSON object (the engine's aggregate). */
const backfill = (objectAgg: string, empty: string) => `
INSERT INTO report_tat_test_monthly (${KEY}, n, minutes, above)
SELECT organization_id, month, test_id, SUM(n),
  ${objectAgg}(CAST(minutes AS TEXT), n),
  COALESCE(${objectAgg}(CAST(minutes AS TEXT), above) FILTER (WHERE above > 0), ${empty})
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

export const sql = `${table}\n${backfill('json_group_object', `'{}'`)}\n${sqliteTriggers}\n`;

/**
 * PostgreSQL: the same histogram (json: kept as its text, so reading it is a copy, not a
 * serialisation as jsonb's would be), but its triggers do not update it. There, rows written in
 * one transaction (`lims import`, `lims db copy`) would update the same (month, test) row again and
 * again, and each update walks every version of it that transaction already made: 20,000 turnaround
 * rows in one transaction took 15.7 s with such a trigger and 1.9 s without, 40,000 took 60 s
 * (docs/decisions.md). So each turnaround row's change is appended to report_tat_test_pending
 * (insert-only: +1 for a new row, -1 for a removed one), readers add the pending rows of their months
 * to the histogram in the same statement (exact at every moment), and foldTatPending
 * (src/core/reports/turnaround.ts) moves the pending rows into the histogram in one statement, from
 * the server's periodic sweep and after `lims db copy`.
 */
const postgresPendingRow = (R: string, s: number) =>
  `INSERT INTO report_tat_test_pending (${KEY}, minutes, n, above)
   VALUES (${R}.organization_id, substr(${R}.collected_at, 1, 7), ${R}.test_id, ${R}.minutes, ${s},
     CASE WHEN ${isAbove(R)} THEN ${s} ELSE 0 END)`;

const postgresTriggers = TRIGGERS.map((t) => {
  const fn = `lims_tat_test_${t.name}`;
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.rows.map(([R, s]) => `  ${postgresPendingRow(R, s)};`).join('\n')}
  RETURN NULL;
END $$;
CREATE TRIGGER tat_test_${t.name} ${t.when} ON report_turnaround FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}).join('\n');

/** PostgreSQL's backfill, also `lims db copy`'s rebuild there (src/core/db/summaries.ts). */
export const postgresBackfill = backfill('json_object_agg', `'{}'::json`);

export const postgres = /* sql */ `
CREATE TABLE report_tat_test_monthly (
  organization_id BIGINT NOT NULL REFERENCES organizations(id),
  month TEXT COLLATE "C" NOT NULL,
  test_id BIGINT NOT NULL,
  n BIGINT NOT NULL DEFAULT 0,
  minutes JSON NOT NULL,
  above JSON NOT NULL,
  PRIMARY KEY (${KEY})
);
CREATE TABLE report_tat_test_pending (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id BIGINT NOT NULL,
  month TEXT COLLATE "C" NOT NULL,
  test_id BIGINT NOT NULL,
  minutes BIGINT NOT NULL,
  n BIGINT NOT NULL,
  above BIGINT NOT NULL
);
CREATE INDEX report_tat_test_pending_month ON report_tat_test_pending (organization_id, month);
-- Two histograms added key by key ({"91": 2} + {"91": 1, "95": 1} = {"91": 3, "95": 1}).
CREATE FUNCTION lims_json_sum(a JSON, b JSON) RETURNS JSON LANGUAGE SQL IMMUTABLE AS $$
  SELECT COALESCE(json_object_agg(k, s), '{}'::json)
  FROM (SELECT k, SUM(v::bigint) AS s FROM (
    SELECT key AS k, value AS v FROM json_each_text(a)
    UNION ALL SELECT key, value FROM json_each_text(b)
  ) x GROUP BY k) y
$$;
${postgresBackfill}
${postgresTriggers}
`;

/**
 * PostgreSQL: moves every pending row into the histogram, in one statement (the rows it deletes are
 * exactly the rows it adds, whatever commits meanwhile).
 */
export const FOLD_TAT_PENDING_POSTGRES = `
WITH moved AS (
  DELETE FROM report_tat_test_pending RETURNING organization_id, month, test_id, minutes, n, above
), per_minute AS (
  SELECT organization_id, month, test_id, minutes, SUM(n) AS n, SUM(above) AS above
  FROM moved GROUP BY organization_id, month, test_id, minutes
), per_test AS (
  SELECT organization_id, month, test_id, SUM(n) AS n,
    json_object_agg(minutes::text, n) AS minutes,
    COALESCE(json_object_agg(minutes::text, above) FILTER (WHERE above <> 0), '{}'::json) AS above
  FROM per_minute GROUP BY organization_id, month, test_id
)
INSERT INTO report_tat_test_monthly (${KEY}, n, minutes, above)
SELECT organization_id, month, test_id, n, minutes, above FROM per_test
ON CONFLICT (${KEY}) DO UPDATE SET n = report_tat_test_monthly.n + excluded.n,
  minutes = lims_json_sum(report_tat_test_monthly.minutes, excluded.minutes),
  above = lims_json_sum(report_tat_test_monthly.above, excluded.above)
`;
