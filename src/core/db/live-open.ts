/**
 * The live board's open ordered tests (live_open_tests, kept by migrations 31 and 37's triggers)
 * filled from the rows: every ordered test whose sample is not rejected and that has no result
 * verified or rejected, with its sample's collection time. `lims db copy` refills the table this
 * way on a PostgreSQL target, whose triggers are off while it copies.
 */
export const REFILL_LIVE_OPEN_TESTS = /* sql */ `
INSERT INTO live_open_tests (organization_id, sample_id, test_id, collection_date)
SELECT s.organization_id, st.sample_id, st.test_id, s.collection_date FROM sample_tests st JOIN samples s ON s.id = st.sample_id
WHERE s.status <> 'rejected'
  AND NOT EXISTS (SELECT 1 FROM test_results r WHERE r.sample_id = st.sample_id AND r.test_id = st.test_id
    AND (r.verified_at IS NOT NULL OR r.status = 'rejected'))
ON CONFLICT (sample_id, test_id) DO NOTHING`;
