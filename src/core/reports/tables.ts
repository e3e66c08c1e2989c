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

/** Migration 25: lines of live bills per UTC day and catalogue item (0: no such id). Kept by triggers. */
export interface ReportBilledDailyTable {
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

/** Migration 25: ordered tests per UTC day of their sample (collected, else ordered) and test. */
export interface ReportWorkloadDailyTable {
  organization_id: number;
  day: string;
  test_id: number;
  ordered: number;
  collected: number;
  resulted: number;
  verified: number;
  rejected: number;
}

/** Migration 25: per 15-minute UTC slot ('YYYY-MM-DDTHH:MM'). */
export interface ReportSlotsTable {
  organization_id: number;
  slot: string;
  samples_collected: number;
  samples_rejected: number;
  results_verified: number;
  billed_paise: number;
}

/** Migration 28: one row per verified result whose sample has a collection time. Kept by triggers. */
export interface ReportTurnaroundTable {
  result_id: number;
  organization_id: number;
  test_id: number;
  /** The sample's collection_date. */
  collected_at: string;
  verified_at: string;
  /** verified_at - collected_at in milliseconds. */
  ms: number;
  /** ms in whole minutes, halves rounded away from zero. */
  minutes: number;
}

/** Migration 30: live bills per UTC day and the user who made them (0: none); their discounts. Kept by triggers. */
export interface ReportDiscountsDailyTable {
  organization_id: number;
  day: string;
  created_by: number;
  bills: number;
  discounted_bills: number;
  line_paise: number;
  bill_paise: number;
  /** total_before_discount_paise of the bills (gross = this + line_paise). */
  before_paise: number;
}

/** Migration 31: an ordered test still open (sample not rejected, no verified or rejected result). */
export interface LiveOpenTestsTable {
  organization_id: number;
  sample_id: number;
  test_id: number;
  /** The sample's collection time (migration 37). */
  collection_date: string | null;
}

/** Migration 32: the payments ledger (status completed or refunded) per lab day, method and kind. Kept by triggers. */
export interface ReportLedgerDailyTable {
  organization_id: number;
  value_date: string;
  method: string;
  kind: string;
  amount_paise: number;
  n: number;
}

/** Migration 32: migration 28's turnaround rows per UTC day of verification and whole minute. */
export interface ReportTatDailyTable {
  organization_id: number;
  day: string;
  minutes: number;
  n: number;
}

/** Migration 32: live bills per UTC day and referring doctor (0: none). Kept by triggers. */
export interface ReportDoctorDailyTable {
  organization_id: number;
  day: string;
  doctor_id: number;
  bills: number;
  final_paise: number;
  discount_paise: number;
}

/**
 * Migration 35: the turnaround rows per UTC month of collection and test, as whole-minute counts
 * ({"<minutes>": count}; JSON text on SQLite, jsonb on PostgreSQL) and, for whole hours, the
 * results past that minute in milliseconds.
 */
export interface ReportTatTestMonthlyTable {
  organization_id: number;
  month: string;
  test_id: number;
  n: number;
  minutes: string;
  above: string;
}

/** Migration 35, PostgreSQL only: changes of the histograms not yet folded into them (+1 / -1 per row). */
export interface ReportTatTestPendingTable {
  id: Generated<number>;
  organization_id: number;
  month: string;
  test_id: number;
  minutes: number;
  n: number;
  above: number;
}

/** Migration 32: a daily summary's rows summed per UTC month ('YYYY-MM'), same key otherwise. */
type Monthly<T> = Omit<T, 'day'> & { month: string };

declare module '../db/schema.js' {
  interface DB {
    custom_reports: CustomReportsTable;
    report_runs: ReportRunsTable;
    report_billed_daily: ReportBilledDailyTable;
    report_workload_daily: ReportWorkloadDailyTable;
    report_slots: ReportSlotsTable;
    report_turnaround: ReportTurnaroundTable;
    report_discounts_daily: ReportDiscountsDailyTable;
    live_open_tests: LiveOpenTestsTable;
    report_ledger_daily: ReportLedgerDailyTable;
    report_tat_daily: ReportTatDailyTable;
    report_billed_monthly: Monthly<ReportBilledDailyTable>;
    report_workload_monthly: Monthly<ReportWorkloadDailyTable>;
    report_tat_monthly: Monthly<ReportTatDailyTable>;
    report_doctor_daily: ReportDoctorDailyTable;
    report_doctor_monthly: Monthly<ReportDoctorDailyTable>;
    report_tat_test_monthly: ReportTatTestMonthlyTable;
    report_tat_test_pending: ReportTatTestPendingTable;
  }
}
