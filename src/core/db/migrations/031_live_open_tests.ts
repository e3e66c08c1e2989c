import { toPostgres } from '../dialect.js';

/**
 * The live board's open ordered tests.
 *
 * live_open_tests holds each ordered test (a sample_tests row) that is still open: its sample is not
 * rejected and it has no result that is verified or rejected. The Enhanced Dashboard's TAT-breach
 * list reads these plus the results verified today, instead of every ordered test of the lab (an
 * open test can be of any age). Kept by triggers on sample_tests, test_results and samples in the
 * write's transaction: each recomputes the rows of the (sample, test) it touches from the current
 * data, so it is right whatever order a statement's rows arrive in (PostgreSQL's AFTER row triggers
 * see the statement's end). Backfilled here; `lims db copy` rebuilds it on the target.
 *
 * Also an index of results by (lab, status, entry time): the board's waiting-for-verification list
 * reads its oldest 20 from it instead of sorting every result waiting.
 */

/** An ordered test's row as the current data says, for ordered tests matching `where` (over st). */
const put: Put = (where: string) =>
  `INSERT INTO live_open_tests (organization_id, sample_id, test_id)
   SELECT s.organization_id, st.sample_id, st.test_id FROM sample_tests st JOIN samples s ON s.id = st.sample_id
   WHERE ${where} AND s.status <> 'rejected'
     AND NOT EXISTS (SELECT 1 FROM test_results r WHERE r.sample_id = st.sample_id AND r.test_id = st.test_id
       AND (r.verified_at IS NOT NULL OR r.status = 'rejected'))
   ON CONFLICT (sample_id, test_id) DO NOTHING`;

/** The statement that puts the open ordered tests matching `where` (a condition over st) into the table. */
export type Put = (where: string) => string;

interface TriggerDef {
  table: string;
  when: string;
  name: string;
  body: string[];
}

/**
 * The triggers, given how a row is put (migration 37 adds the collection time) and the columns of
 * samples whose change recomputes a sample's rows.
 */
export const liveOpenTriggers = (put: Put, sampleColumns: string): TriggerDef[] => {
  /** Recompute the ordered test (R.sample_id, R.test_id). */
  const refresh = (R: string) => [
    `DELETE FROM live_open_tests WHERE sample_id = ${R}.sample_id AND test_id = ${R}.test_id`,
    put(`st.sample_id = ${R}.sample_id AND st.test_id = ${R}.test_id`),
  ];
  return [
    { table: 'sample_tests', when: 'AFTER INSERT', name: 'ai', body: refresh('NEW') },
    {
      table: 'sample_tests',
      when: 'AFTER UPDATE OF sample_id, test_id',
      name: 'au',
      body: [...refresh('OLD'), ...refresh('NEW')],
    },
    { table: 'sample_tests', when: 'AFTER DELETE', name: 'ad', body: refresh('OLD') },
    { table: 'test_results', when: 'AFTER INSERT', name: 'ai', body: refresh('NEW') },
    {
      table: 'test_results',
      when: 'AFTER UPDATE OF sample_id, test_id, verified_at, status',
      name: 'au',
      body: [...refresh('OLD'), ...refresh('NEW')],
    },
    { table: 'test_results', when: 'AFTER DELETE', name: 'ad', body: refresh('OLD') },
    {
      table: 'samples',
      when: `AFTER UPDATE OF ${sampleColumns}`,
      name: 'au',
      body: [`DELETE FROM live_open_tests WHERE sample_id = OLD.id`, put('st.sample_id = NEW.id')],
    },
    {
      table: 'samples',
      when: 'AFTER DELETE',
      name: 'ad',
      body: [`DELETE FROM live_open_tests WHERE sample_id = OLD.id`],
    },
  ];
};

const TRIGGERS = liveOpenTriggers(put, 'status, organization_id');

const tables = /* sql */ `
CREATE TABLE live_open_tests (
  organization_id INTEGER NOT NULL,
  sample_id INTEGER NOT NULL,
  test_id INTEGER NOT NULL,
  PRIMARY KEY (sample_id, test_id)
);
CREATE INDEX live_open_tests_org ON live_open_tests (organization_id, sample_id, test_id);
-- The board's results waiting for verification, oldest first: the first page without sorting them
-- all. Partial, so it is not taken for other readers of a lab's results (the critical list); its
-- reader writes status = 'completed' as a literal.
CREATE INDEX test_results_awaiting ON test_results (organization_id, (COALESCE(entered_at, created_at)), id)
  WHERE status = 'completed';
`;

const backfill = `${put('1 = 1')};\n`;

/** SQLite's text of the triggers. */
export const sqliteLiveOpenTriggers = (triggers: TriggerDef[]) =>
  triggers
    .map(
      (t) =>
        `CREATE TRIGGER live_open_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW BEGIN\n${t.body
          .map((b) => `  ${b};`)
          .join('\n')}\nEND;`,
    )
    .join('\n');
const sqliteTriggers = sqliteLiveOpenTriggers(TRIGGERS);

export const sql = `${tables}\n${backfill}\n${sqliteTriggers}\n`;

/** PostgreSQL's text of the triggers and their functions. */
export const postgresLiveOpenTriggers = (triggers: TriggerDef[]) =>
  triggers
    .map((t) => {
      const fn = `lims_live_open_${t.table}_${t.name}`;
      return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN NULL;
END $$;
CREATE TRIGGER live_open_${t.table}_${t.name} ${t.when} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
    })
    .join('\n');
const postgresTriggers = postgresLiveOpenTriggers(TRIGGERS);

export const postgres = `${toPostgres(tables)}\n${backfill}\n${postgresTriggers}\n`;
