import type { Generated } from 'kysely';

/** Kysely table types of this feature. Timestamps are ISO-8601 UTC strings; money is integer paise. */

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
  /** The payer the bill is charged to (null: self pay). */
  payer_id: Generated<number | null>;
  /** The invoice the bill is on (null: not invoiced, or its invoice was cancelled). */
  invoice_id: Generated<number | null>;
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
  /** GST (src/shared/gst.ts): the line's category, SAC, value after its share of the bill discount, and tax. */
  tax_category: Generated<string>;
  sac_code: Generated<string>;
  taxable_paise: Generated<number>;
  tax_paise: Generated<number>;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    bills: BillsTable;
    bill_items: BillItemsTable;
  }
}
