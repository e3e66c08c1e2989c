import type { Generated } from 'kysely';

/** Kysely table types of payers. Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface PayersTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  type: string;
  gstin: string | null;
  address: string | null;
  state_code: string | null;
  contact_person: string | null;
  phone: string | null;
  email: string | null;
  credit_limit_paise: number | null;
  payment_terms_days: number;
  discount_percent: number;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface PayerPricesTable {
  id: Generated<number>;
  organization_id: number;
  payer_id: number;
  item_type: string;
  item_id: number;
  price_paise: number;
  effective_from: string;
  effective_to: string | null;
  created_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    payers: PayersTable;
    payer_prices: PayerPricesTable;
  }
}
