import type { Generated } from 'kysely';

/** Kysely table types of GST invoices. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface InvoicesTable {
  id: Generated<number>;
  organization_id: number;
  invoice_number: string | null;
  status: string;
  payer_id: number | null;
  patient_id: number | null;
  period_from: string | null;
  period_to: string | null;
  recipient_name: string;
  recipient_gstin: string | null;
  recipient_address: string | null;
  recipient_state_code: string | null;
  lab_gstin: string | null;
  lab_state_code: string | null;
  /** The supplier as the invoice was issued (null on a draft: it prints the lab of today). */
  lab_name: string | null;
  lab_address: string | null;
  lab_phone: string | null;
  lab_email: string | null;
  place_of_supply: string | null;
  taxable_paise: number;
  exempt_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  total_paise: number;
  invoice_date: string | null;
  due_date: string | null;
  notes: string | null;
  issued_at: string | null;
  issued_by: number | null;
  paid_at: string | null;
  payment_method: string | null;
  payment_reference: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  credit_note_number: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface InvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  position: number;
  bill_id: number;
  description: string;
  sac_code: string;
  qty: number;
  rate_percent: number;
  taxable_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  total_paise: number;
}

declare module '../db/schema.js' {
  interface DB {
    invoices: InvoicesTable;
    invoice_lines: InvoiceLinesTable;
  }
}
