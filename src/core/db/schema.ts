import type { Generated } from 'kysely';

/** Kysely table types. Timestamps are ISO-8601 UTC strings; money is integer paise. */
export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  timezone: string;
  currency: string;
  date_format: string;
  settings: string;
  is_demo: number;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  role: string;
  department: string | null;
  phone: string | null;
  specialization: string | null;
  consultation_fee_paise: number;
  is_active: number;
  last_login: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  organization_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
}

export interface SequencesTable {
  organization_id: number;
  name: string;
  value: number;
}

export interface EntityCountsTable {
  organization_id: number;
  entity: string;
  n: number;
}

export interface PatientsTable {
  id: Generated<number>;
  organization_id: number;
  patient_code: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  gender: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
  emergency_contact: string | null;
  emergency_phone: string | null;
  emergency_relation: string | null;
  blood_group: string | null;
  allergies: string | null;
  medical_history: string | null;
  insurance_provider: string | null;
  insurance_number: string | null;
  membership_type: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  organization_id: number | null;
  user_id: number | null;
  user_email: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  old_values: string | null;
  new_values: string | null;
  ip_address: string | null;
  user_agent: string | null;
  status: string;
  created_at: string;
  prev_hash: string;
  hash: string;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface DB extends CatalogueDB, LaboratoryDB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  sequences: SequencesTable;
  entity_counts: EntityCountsTable;
  patients: PatientsTable;
  audit_log: AuditLogTable;
  schema_migrations: SchemaMigrationsTable;
}

export interface TestsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  code: string;
  description: string | null;
  category: string | null;
  price_paise: number;
  base_price_paise: number;
  unit: string | null;
  normal_range: string | null;
  reference_ranges: string | null;
  sample_type: string | null;
  turnaround_hours: number | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface TestProfilesTable {
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

export interface TestPackagesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  code: string;
  description: string | null;
  category: string | null;
  price_paise: number;
  base_price_paise: number;
  duration: string | null;
  status: string;
  created_at: string;
  updated_at: string;
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

export interface BillsTable {
  id: Generated<number>;
  organization_id: number;
  bill_number: string;
  patient_id: number;
  doctor_id: number | null;
  visit_type: string;
  subtotal_paise: number;
  consultation_fee_paise: number;
  total_before_discount_paise: number;
  discount_percentage: number;
  discount_amount_paise: number;
  tax_percentage: number;
  tax_amount_paise: number;
  final_amount_paise: number;
  paid_paise: number;
  payment_method: string;
  due_date: string;
  notes: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface BillItemsTable {
  id: Generated<number>;
  bill_id: number;
  position: number;
  item_type: string;
  test_id: number | null;
  profile_id: number | null;
  package_id: number | null;
  name: string;
  code: string | null;
  qty: number;
  list_price_paise: number;
  unit_price_paise: number;
  gst_percent: number;
  discount_percent: number;
  discount_amount_paise: number;
  total_paise: number;
}

export interface PaymentsTable {
  id: Generated<number>;
  organization_id: number;
  bill_id: number;
  amount_paise: number;
  method: string;
  reference: string | null;
  reason: string | null;
  received_by: number | null;
  created_at: string;
}

export interface CatalogueDB {
  tests: TestsTable;
  test_profiles: TestProfilesTable;
  test_packages: TestPackagesTable;
  profile_tests: ProfileTestsTable;
  package_tests: PackageTestsTable;
  package_profiles: PackageProfilesTable;
  price_history: PriceHistoryTable;
  bills: BillsTable;
  bill_items: BillItemsTable;
  payments: PaymentsTable;
}

export interface CollectionLocationsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  kind: string;
  position: number;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface SamplesTable {
  id: Generated<number>;
  organization_id: number;
  sample_code: string;
  barcode: string | null;
  patient_id: number;
  bill_id: number | null;
  sample_type: string;
  collector_id: number | null;
  location: string | null;
  priority: string;
  status: string;
  notes: string | null;
  rejection_reason: string | null;
  collection_date: string | null;
  completed_at: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface SampleTestsTable {
  sample_id: number;
  test_id: number;
  position: number;
}

export interface SampleStatusHistoryTable {
  id: Generated<number>;
  sample_id: number;
  from_status: string | null;
  to_status: string;
  changed_by: number | null;
  changed_by_name: string | null;
  location: string | null;
  notes: string | null;
  created_at: string;
}

export interface TestResultsTable {
  id: Generated<number>;
  organization_id: number;
  sample_id: number;
  test_id: number;
  patient_id: number;
  result_value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  is_critical: number;
  status: string;
  review_required: number;
  notes: string | null;
  rejection_reason: string | null;
  technician_id: number | null;
  entered_at: string | null;
  verified_by: number | null;
  verified_at: string | null;
  amended: number;
  created_at: string;
  updated_at: string;
}

export interface ResultAmendmentsTable {
  id: Generated<number>;
  result_id: number;
  old_value: string | null;
  old_unit: string | null;
  old_flag: string | null;
  old_status: string;
  old_verified_by: number | null;
  old_verified_at: string | null;
  reason: string;
  amended_by: number | null;
  amended_at: string;
}

export interface QcMaterialsTable {
  id: Generated<number>;
  organization_id: number;
  control_id: string;
  name: string;
  test_id: number;
  level: string | null;
  control_type: string;
  lot_number: string;
  expiry_date: string;
  target_mean: number;
  target_sd: number;
  unit: string | null;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface QcRunsTable {
  id: Generated<number>;
  organization_id: number;
  material_id: number;
  value: number;
  z_score: number;
  status: string;
  rules: string;
  comments: string | null;
  performed_by: number | null;
  performed_at: string;
  created_at: string;
}

export interface VisitsTable {
  id: Generated<number>;
  organization_id: number;
  patient_id: number;
  doctor_id: number | null;
  bill_id: number | null;
  visit_type: string;
  status: string;
  visit_date: string;
  visit_time: string | null;
  chief_complaint: string | null;
  diagnosis: string | null;
  treatment: string | null;
  follow_up_date: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface PatientPortalAccessTable {
  patient_id: number;
  organization_id: number;
  pin_hash: string;
  issued_by: number | null;
  issued_at: string;
}

export interface PortalSessionsTable {
  id: string;
  patient_id: number;
  organization_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface LaboratoryDB {
  collection_locations: CollectionLocationsTable;
  samples: SamplesTable;
  sample_tests: SampleTestsTable;
  sample_status_history: SampleStatusHistoryTable;
  test_results: TestResultsTable;
  result_amendments: ResultAmendmentsTable;
  qc_materials: QcMaterialsTable;
  qc_runs: QcRunsTable;
  visits: VisitsTable;
  patient_portal_access: PatientPortalAccessTable;
  portal_sessions: PortalSessionsTable;
}
