import type { Generated } from 'kysely';

/** Kysely table types of reports (migration 22). Timestamps are ISO-8601 UTC strings. */

export interface CustomReportsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string | null;
  entity: string;
  /** JSON array of column keys of the entity. */
  columns: string;
  /** JSON object of the entity's filters (key -> value). */
  filters: string;
  range_days: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ReportRunsTable {
  id: Generated<number>;
  organization_id: number;
  report_id: string;
  format: string;
  from_date: string;
  to_date: string;
  row_count: number;
  user_id: number | null;
  /** The lab's calendar day of the run (Generated Today). */
  lab_date: string;
  created_at: string;
}

/**
 * The report rollups (migration 49): one row per lab, lab day ('YYYY-MM-DD' in the lab's time zone)
 * and key, each a pure function of that day's rows, written only by rebuildDay
 * (src/core/reports/rollups/rebuild.ts).
 */

/** Lines of live bills per lab day of the bill and catalogue item (0: no such id). */
export interface RollupBilledTable {
  organization_id: number;
  day: string;
  item_type: string;
  test_id: number;
  profile_id: number;
  package_id: number;
  name: string;
  lines: number;
  qty: number;
  total_paise: number;
}

/** Ordered tests per lab day of their sample (collected, else ordered) and test. */
export interface RollupWorkloadTable {
  organization_id: number;
  day: string;
  test_id: number;
  ordered: number;
  collected: number;
  resulted: number;
  verified: number;
  rejected: number;
}

/**
 * Verified results per lab day of their sample's collection and test: how many, and their
 * turnaround in whole minutes as a JSON object {"<minutes>": count}; `above` the same for the
 * results past their minute in milliseconds, on whole hours only (a target is whole hours).
 */
export interface RollupTurnaroundTable {
  organization_id: number;
  day: string;
  test_id: number;
  n: number;
  minutes: string;
  above: string;
}

/**
 * Per lab day: samples collected (and of them rejected) by collection time, results verified by
 * verification time, and those results' turnaround in whole minutes ({"<minutes>": count}).
 */
export interface RollupDayTable {
  organization_id: number;
  day: string;
  samples_collected: number;
  samples_rejected: number;
  results_verified: number;
  tat_minutes: string;
}

/**
 * Live bills per lab day of the bill and user who made it (0: none, migration 51): how many, how
 * many with a line or bill discount, the line and bill discounts and the gross (line prices before
 * any discount plus the rest of the bill before its discount).
 */
export interface RollupDiscountsTable {
  organization_id: number;
  day: string;
  created_by: number;
  bills: number;
  discounted_bills: number;
  line_paise: number;
  bill_paise: number;
  gross_paise: number;
}

/**
 * Live bills per lab day: how many, distinct patients, bill discounts, final amounts and their lines'
 * totals (after line discounts, before the bill's own; migration 51).
 */
export interface RollupRevenueTable {
  organization_id: number;
  day: string;
  bills: number;
  patients: number;
  discount_paise: number;
  billed_paise: number;
  lines_paise: number;
}

/** Live bills per lab day and referring doctor (0: none, migration 51). */
export interface RollupDoctorTable {
  organization_id: number;
  day: string;
  doctor_id: number;
  bills: number;
  discount_paise: number;
  billed_paise: number;
}

/** UTC minutes ('YYYY-MM-DDTHH:MM') whose rows changed since their lab day's rollups were rebuilt. */
export interface RollupStaleTable {
  organization_id: number;
  minute: string;
}

export interface LiveOpenTestsTable {
  organization_id: number;
  sample_id: number;
  test_id: number;
  /** The sample's collection time (migration 37). */
  collection_date: string | null;
}

declare module '../db/schema.js' {
  interface DB {
    custom_reports: CustomReportsTable;
    report_runs: ReportRunsTable;
    live_open_tests: LiveOpenTestsTable;
    rollup_billed: RollupBilledTable;
    rollup_workload: RollupWorkloadTable;
    rollup_turnaround: RollupTurnaroundTable;
    rollup_day: RollupDayTable;
    rollup_stale: RollupStaleTable;
    rollup_discounts: RollupDiscountsTable;
    rollup_revenue: RollupRevenueTable;
    rollup_doctor: RollupDoctorTable;
  }
}
