import type { Generated } from 'kysely';

/** Kysely table types of the payments feature (the ledger's rows are billing's `payments`). Money is integer paise. */
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
    day_closings: DayClosingsTable;
  }
}
