import type { Generated } from 'kysely';

/** Kysely table types of collection centres (migration 054). Times are ISO-8601 UTC; money integer paise. */

export interface CentresTable {
  id: Generated<number>;
  organization_id: number;
  payer_id: number;
  credit_limit_paise: number | null;
  share_basis: string;
  share_bp: number;
  created_at: string;
  updated_at: string;
}

export interface CentreShareRulesTable {
  id: Generated<number>;
  organization_id: number;
  centre_id: number;
  test_id: number | null;
  category: string | null;
  share_bp: number;
  created_at: string;
}

export interface CentrePatientsTable {
  organization_id: number;
  centre_id: number;
  patient_id: number;
  created_at: string;
}

export interface CentreSettingsTable {
  organization_id: number;
  on_breach: string;
  updated_at: string;
}

export interface CentreApprovalsTable {
  id: Generated<number>;
  organization_id: number;
  centre_id: number;
  reason: string;
  approved_by: number | null;
  approved_at: string;
  bill_id: number | null;
  used_at: string | null;
}

export interface CentreReceiptsTable {
  id: Generated<number>;
  organization_id: number;
  centre_id: number;
  amount_paise: number;
  method: string;
  reference: string | null;
  created_by: number | null;
  created_at: string;
}

export interface CentreReceiptAllocationsTable {
  id: Generated<number>;
  receipt_id: number;
  bill_id: number;
  payment_id: number;
  amount_paise: number;
}

declare module '../db/schema.js' {
  interface DB {
    centres: CentresTable;
    centre_share_rules: CentreShareRulesTable;
    centre_patients: CentrePatientsTable;
    centre_settings: CentreSettingsTable;
    centre_approvals: CentreApprovalsTable;
    centre_receipts: CentreReceiptsTable;
    centre_receipt_allocations: CentreReceiptAllocationsTable;
  }
  interface UsersTable {
    /** The centre a login of role `centre` is bound to (migration 57); null for the lab's staff. */
    centre_id: number | null;
  }
}
