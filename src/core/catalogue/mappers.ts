import type { Selectable } from 'kysely';
import type { TestPackagesTable, TestProfilesTable, TestsTable } from './tables.js';
import type {
  CatalogueRef,
  CataloguePackage,
  CatalogueProfile,
  CatalogueTest,
} from '../../shared/schemas/catalogue.js';

export type TestRow = Selectable<TestsTable>;
export type ProfileRow = Selectable<TestProfilesTable>;
export type PackageRow = Selectable<TestPackagesTable>;

/** A JSON list column (choices, aliases); empty when unset. */
export function jsonList(text: string | null): string[] {
  return text ? (JSON.parse(text) as string[]) : [];
}

type Band = CatalogueTest['reference_ranges'][number];

/** Stored bands; those saved before bands had a unit counted whole years, and say so now. */
function referenceRangesOf(text: string | null): Band[] {
  if (!text) return [];
  return (JSON.parse(text) as Band[]).map((b) =>
    b.age_min == null && b.age_max == null ? b : { ...b, age_unit: b.age_unit ?? 'years' },
  );
}

/** What a test, a profile and a package all show first: who it is and its price in rupees. */
function itemFields(r: TestRow | ProfileRow | PackageRow) {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    description: r.description,
    category: r.category,
    price: r.price_paise / 100,
    base_price: r.base_price_paise / 100,
  };
}

export function toTest(r: TestRow): CatalogueTest {
  return {
    ...itemFields(r),
    unit: r.unit,
    normal_range: r.normal_range,
    normalRange: r.normal_range,
    reference_ranges: referenceRangesOf(r.reference_ranges),
    sample_type: r.sample_type,
    turnaround_hours: r.turnaround_hours,
    target_tat_minutes: r.target_tat_minutes,
    result_type: r.result_type as CatalogueTest['result_type'],
    result_template: r.result_template,
    decimals: r.decimals,
    plausible_low: r.plausible_low,
    plausible_high: r.plausible_high,
    critical_low: r.critical_low,
    critical_high: r.critical_high,
    choices: jsonList(r.choices),
    tax_category: r.tax_category as CatalogueTest['tax_category'],
    sac_code: r.sac_code,
    method: r.method,
    loinc_code: r.loinc_code,
    formula: r.formula,
    container: r.container,
    delta_limit: r.delta_limit,
    delta_kind: r.delta_kind,
    delta_window_days: r.delta_window_days,
    aliases: jsonList(r.aliases),
    status: r.status,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toProfile(r: ProfileRow, tests: CatalogueRef[]): CatalogueProfile {
  return {
    ...itemFields(r),
    status: r.status,
    test_ids: tests.map((t) => t.id),
    tests: tests.map((t) => t.name),
    test_details: tests,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toPackage(r: PackageRow, tests: CatalogueRef[], profiles: CatalogueRef[]): CataloguePackage {
  return {
    ...itemFields(r),
    duration: r.duration,
    status: r.status,
    test_ids: tests.map((t) => t.id),
    profile_ids: profiles.map((p) => p.id),
    tests: [...profiles.map((p) => p.name), ...tests.map((t) => t.name)],
    test_details: tests,
    profile_details: profiles,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
