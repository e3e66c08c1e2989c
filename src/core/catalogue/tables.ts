import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

/** The columns the three kinds of catalogue item share (src/core/catalogue/repository.ts relies on them). */
export interface CatalogueItemColumns {
  id: Generated<number>;
  organization_id: number;
  name: string;
  code: string;
  description: string | null;
  category: string | null;
  price_paise: number;
  base_price_paise: number;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface TestsTable extends CatalogueItemColumns {
  /** GST category (src/shared/gst.ts): exempt unless the lab says otherwise. */
  tax_category: Generated<string>;
  sac_code: string | null;
  unit: string | null;
  normal_range: string | null;
  reference_ranges: string | null;
  sample_type: string | null;
  turnaround_hours: number | null;
  /** Minutes from collection to verification the lab aims for (Enhanced Dashboard breaches); null: none. */
  target_tat_minutes: number | null;
  result_type: Generated<string>;
  /** The result template of a structured test (src/shared/templates), else null. */
  result_template: string | null;
  decimals: number | null;
  plausible_low: number | null;
  plausible_high: number | null;
  critical_low: number | null;
  critical_high: number | null;
  /** JSON array of the allowed values of a choice test. */
  choices: string | null;
  formula: string | null;
  container: string | null;
  delta_limit: number | null;
  delta_kind: string | null;
  delta_window_days: number | null;
  /** JSON array of other names staff search by (sugar, Hb, CBC). */
  aliases: string | null;
  /** JSON array of the Westgard rules QC of this test is judged by; null: the default set. */
  qc_rules: string | null;
  /** The method printed on the report (migration 23), e.g. "Photometry"; optional. */
  method: Generated<string | null>;
  /** The LOINC code of the HL7/FHIR reports (migration 27), e.g. 1558-6; optional. */
  loinc_code: Generated<string | null>;
}

export type TestProfilesTable = CatalogueItemColumns;

export interface TestPackagesTable extends CatalogueItemColumns {
  duration: string | null;
}

export interface ProfileTestsTable {
  profile_id: number;
  test_id: number;
  position: number;
}

export interface PackageTestsTable {
  package_id: number;
  test_id: number;
  position: number;
}

export interface PackageProfilesTable {
  package_id: number;
  profile_id: number;
  position: number;
}

export interface PriceHistoryTable {
  id: Generated<number>;
  organization_id: number;
  item_type: string;
  item_id: number;
  old_price_paise: number | null;
  new_price_paise: number;
  old_base_price_paise: number | null;
  new_base_price_paise: number;
  changed_by: number | null;
  changed_by_email: string | null;
  changed_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    tests: TestsTable;
    test_profiles: TestProfilesTable;
    test_packages: TestPackagesTable;
    profile_tests: ProfileTestsTable;
    package_tests: PackageTestsTable;
    package_profiles: PackageProfilesTable;
    price_history: PriceHistoryTable;
  }
}
