import { toPostgres } from '../dialect.js';
import { liveOpenTriggers, postgresLiveOpenTriggers, sqliteLiveOpenTriggers, type Put } from './031_live_open_tests.js';

/**
 * The live board on a busy year.
 *
 * - live_open_tests (migration 31) carries its sample's collection time. The TAT-breach list read
 *   every open ordered test joined to its sample for that one column: on PostgreSQL the join of the
 *   bench year's 8,600 open tests scanned all 108,000 samples (35-45 ms of the board's 90-117).
 *   The triggers put the column with the row; a sample's change of collection time now recomputes
 *   its rows as a change of status does.
 * - An index of critical results by (lab, entry time, id): the board's oldest critical results not
 *   yet called are read in that order (most are called, so it stops after a few hundred) instead of
 *   sorting every critical result of the lab.
 */

const put: Put = (where: string) =>
  `INSERT INTO live_open_tests (organization_id, sample_id, test_id, collection_date)
   SELECT s.organization_id, st.sample_id, st.test_id, s.collection_date FROM sample_tests st JOIN samples s ON s.id = st.sample_id
   WHERE ${where} AND s.status <> 'rejected'
     AND NOT EXISTS (SELECT 1 FROM test_results r WHERE r.sample_id = st.sample_id AND r.test_id = st.test_id
       AND (r.verified_at IS NOT NULL OR r.status = 'rejected'))
   ON CONFLICT (sample_id, test_id) DO NOTHING`;

const TRIGGERS = liveOpenTriggers(put, 'status, organization_id, collection_date');

/** Fills the table from the rows: `lims db copy`'s rebuild on PostgreSQL (src/core/db/summaries.ts). */
export const backfill = `${put('1 = 1')};\n`;

const columns = /* sql */ `
ALTER TABLE live_open_tests ADD COLUMN collection_date TEXT;
UPDATE live_open_tests SET collection_date = (SELECT s.collection_date FROM samples s WHERE s.id = live_open_tests.sample_id);
CREATE INDEX test_results_critical_entered ON test_results (organization_id, (COALESCE(entered_at, created_at)), id)
  WHERE is_critical = 1;
`;

export const sql = `${columns}
${TRIGGERS.map((t) => `DROP TRIGGER live_open_${t.table}_${t.name};`).join('\n')}
${sqliteLiveOpenTriggers(TRIGGERS)}
`;

export const postgres = `${toPostgres(columns)}
${TRIGGERS.map((t) => `DROP TRIGGER live_open_${t.table}_${t.name} ON ${t.table};\nDROP FUNCTION lims_live_open_${t.table}_${t.name}();`).join('\n')}
${postgresLiveOpenTriggers(TRIGGERS)}
`;
