import type { Generated } from 'kysely';

/** Kysely table types of the payments feature: the ledger's rows and the day-end closings. Money is integer paise. */

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
  // The ledger (migration 19): kind, status, advance, refunds, the day it counts on.
  kind: Generated<'payment' | 'refund' | 'advance'>;
  status: Generated<'pending' | 'completed' | 'failed' | 'refunded'>;
  patient_id: number | null;
  bank: string | null;
  advance_paise: Generated<number>;
  refunded_paise: Generated<number>;
  refund_of: number | null;
  value_date: string | null;
  settled_at: string | null;
  settled_by: number | null;
}

export interface DayClosingsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  business_date: string;
  opening_float_paise: number;
  cash_paise: number;
  card_paise: number;
  upi_paise: number;
  bank_transfer_paise: number;
  cheque_paise: number;
  insurance_paise: number;
  refunds_paise: number;
  cash_refunds_paise: number;
  payments_count: number;
  pending_cheques_paise: number;
  expected_cash_paise: number;
  counted_cash_paise: number;
  difference_paise: number;
  notes: string | null;
  closed_by: number;
  closed_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    payments: PaymentsTable;
    day_closings: DayClosingsTable;
  }
}
