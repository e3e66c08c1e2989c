/**
 * PostgreSQL only: the report summaries a row trigger adds to are written once per
 * transaction and key, at its commit, instead of once per row.
 *
 * The triggers of migrations 25, 30 and 32 add each row's share to its summary row with INSERT ...
 * ON CONFLICT DO UPDATE. Inside one transaction every such update leaves a version of the summary
 * row that cannot be pruned until the commit, and the next update walks them all: `lims import
 * bills` of 5,000 bills took 112 s on PostgreSQL against 4.8 s on SQLite, growing with the square
 * of the file (a bill updates its day's discounts row about nine times, once per line and more).
 *
 * Now a BEFORE INSERT trigger on each of those summaries puts the share into a pending table of the
 * same columns instead (insert-only), and the first share of a transaction also puts a row into
 * report_fold_marker, whose constraint trigger is deferred to the commit. There lims_fold_summaries
 * adds each pending table's shares, summed per key and in key order, to its summary in one
 * statement (the monthly roll-ups of migration 32 follow from those updates by their own triggers)
 * and empties the pending tables. Another transaction never sees pending rows (they are
 * uncommitted until the commit that folds them), so every reader stays exact without reading
 * them; a transaction reading the summaries after its own writes would not see those writes yet,
 * and no reader in lims does. A savepoint rolled back takes its shares, its marker and its flag
 * with it; a fold made early (SET CONSTRAINTS ALL IMMEDIATE) clears the flag, so later shares of
 * the transaction put a new marker and are folded at the commit.
 *
 * SQLite updates a row in place and keeps its triggers as they are.
 */

interface Summed {
  table: string;
  key: string[];
  sums: string[];
}

/** The summaries row triggers add to (the monthly roll-ups are added to only by these, at the fold). */
export const SUMMED_AT_COMMIT: Summed[] = [
  {
    table: 'report_billed_daily',
    key: ['organization_id', 'day', 'item_type', 'test_id', 'profile_id', 'package_id', 'name'],
    sums: ['lines', 'qty', 'total_paise'],
  },
  {
    table: 'report_workload_daily',
    key: ['organization_id', 'day', 'test_id'],
    sums: ['ordered', 'collected', 'resulted', 'verified', 'rejected'],
  },
  {
    table: 'report_slots',
    key: ['organization_id', 'slot'],
    sums: ['samples_collected', 'samples_rejected', 'results_verified', 'billed_paise'],
  },
  {
    table: 'report_discounts_daily',
    key: ['organization_id', 'day', 'created_by'],
    sums: ['bills', 'discounted_bills', 'line_paise', 'bill_paise', 'before_paise'],
  },
  {
    table: 'report_ledger_daily',
    key: ['organization_id', 'value_date', 'method', 'kind'],
    sums: ['amount_paise', 'n'],
  },
  { table: 'report_tat_daily', key: ['organization_id', 'day', 'minutes'], sums: ['n'] },
  {
    table: 'report_doctor_daily',
    key: ['organization_id', 'day', 'doctor_id'],
    sums: ['bills', 'final_paise', 'discount_paise'],
  },
];

export const pendingTable = (table: string) => `${table}_pending`;

const fold = (s: Summed) => {
  const cols = [...s.key, ...s.sums];
  return `WITH p AS (DELETE FROM ${pendingTable(s.table)} RETURNING *)
  INSERT INTO ${s.table} (${cols.join(', ')})
    SELECT ${s.key.join(', ')}, ${s.sums.map((c) => `SUM(${c})`).join(', ')} FROM p
    GROUP BY ${s.key.join(', ')} ORDER BY ${s.key.join(', ')}
    ON CONFLICT (${s.key.join(', ')}) DO UPDATE SET ${s.sums.map((c) => `${c} = ${s.table}.${c} + excluded.${c}`).join(', ')};`;
};

export const sql = /* sql */ `
-- SQLite: nothing (its triggers update each summary row in place).
SELECT 1;
`;

export const postgres = /* sql */ `
CREATE TABLE report_fold_marker (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY);

${SUMMED_AT_COMMIT.map(
  (s) => `CREATE TABLE ${pendingTable(s.table)} (LIKE ${s.table});
CREATE FUNCTION lims_pending_${s.table}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('lims.summary_fold', true) = 'on' THEN
    RETURN NEW;
  END IF;
  INSERT INTO ${pendingTable(s.table)} SELECT NEW.*;
  IF current_setting('lims.summary_pending', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('lims.summary_pending', 'on', true);
    INSERT INTO report_fold_marker DEFAULT VALUES;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER pending_bi BEFORE INSERT ON ${s.table} FOR EACH ROW EXECUTE FUNCTION lims_pending_${s.table}();`,
).join('\n')}

CREATE FUNCTION lims_fold_summaries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('lims.summary_fold', 'on', true);
  ${SUMMED_AT_COMMIT.map(fold).join('\n  ')}
  DELETE FROM report_fold_marker;
  PERFORM set_config('lims.summary_fold', 'off', true);
  PERFORM set_config('lims.summary_pending', 'off', true);
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER fold_at_commit AFTER INSERT ON report_fold_marker
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lims_fold_summaries();
`;
