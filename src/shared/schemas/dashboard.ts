/**
 * GET /api/dashboard/stats. A module whose tables do not exist yet answers null: screens show
 * "—" and "not available yet", never a made-up zero.
 */
export interface Counts {
  patients: number;
  users: number;
  doctors: number;
  tests: number | null;
  test_profiles: number | null;
  test_packages: number | null;
  samples: number | null;
  test_results: number | null;
  bills: number | null;
}
