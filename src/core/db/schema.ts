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
  /** Dr, Prof, Mr, Mrs, Ms or Miss (src/shared/person-name.ts); null when none was given. */
  title: string | null;
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

/** PostgreSQL only: the search words of each patient; SQLite keeps them in its FTS5 index. */
export interface PatientSearchWordsTable {
  organization_id: number;
  word: string;
  patient_id: number;
}

export interface PatientSearchPrefixCountsTable {
  organization_id: number;
  prefix: string;
  n: number;
}

export interface PatientsTable {
  id: Generated<number>;
  organization_id: number;
  patient_code: string;
  /** The patient's number in the lab's earlier system (migration 046), unique in the lab. */
  legacy_id: string | null;
  title: string | null;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  /** 1 when the birth date was worked out from an age told at registration. */
  dob_estimated: Generated<number>;
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

/**
 * The database as Kysely sees it: the foundation's tables here; each feature adds its own from
 * src/core/<feature>/tables.ts (a module augmentation of this interface), so this file does not
 * grow with features.
 */
export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  sequences: SequencesTable;
  entity_counts: EntityCountsTable;
  patients: PatientsTable;
  patient_search_words: PatientSearchWordsTable;
  patient_search_prefix_counts: PatientSearchPrefixCountsTable;
  audit_log: AuditLogTable;
  schema_migrations: SchemaMigrationsTable;
}
