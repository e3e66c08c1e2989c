import type Database from 'better-sqlite3';
import { rebuildTable } from '../rebuild.js';
import { toPostgres } from '../dialect.js';
import { localDate } from '../../../shared/time.js';

/**
 * The payments ledger and day-end closing. The payments table becomes the lab's ledger:
 * - one list of methods (cash, card, upi, bank_transfer, cheque, insurance); netbanking rows and
 *   bills become bank_transfer;
 * - kind: a payment or a refund (its own row, negative, refund_of the payment it returns);
 * - status: pending (a cheque until cleared), completed, failed (a bounced cheque), refunded (all of it returned);
 * - advance_paise: the part of a payment beyond the bill's balance kept on the patient's account;
 * - value_date: the lab's calendar day the money counts on (revenue and the cashier's closing);
 *   NULL while a cheque is pending or after it bounced.
 * day_closings: a cashier's closing report per user per day, locked once written.
 */
export const sql = /* sql */ `
ALTER TABLE payments ADD COLUMN kind TEXT NOT NULL DEFAULT 'payment' CHECK (kind IN ('payment','refund'));
ALTER TABLE payments ADD COLUMN status TEXT NOT NULL DEFAULT 'completed' CHECK (status IN ('pending','completed','failed','refunded'));
ALTER TABLE payments ADD COLUMN patient_id INTEGER REFERENCES patients(id);
ALTER TABLE payments ADD COLUMN bank TEXT;
ALTER TABLE payments ADD COLUMN advance_paise INTEGER NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN refunded_paise INTEGER NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN refund_of INTEGER REFERENCES payments(id);
ALTER TABLE payments ADD COLUMN value_date TEXT;
ALTER TABLE payments ADD COLUMN settled_at TEXT;
ALTER TABLE payments ADD COLUMN settled_by INTEGER REFERENCES users(id);
UPDATE payments SET kind = 'refund' WHERE amount_paise < 0;
UPDATE payments SET patient_id = (SELECT b.patient_id FROM bills b WHERE b.id = payments.bill_id);
UPDATE bills SET payment_method = 'bank_transfer' WHERE payment_method = 'netbanking';
CREATE INDEX payments_org_value_date ON payments (organization_id, value_date);
CREATE INDEX payments_patient ON payments (patient_id, id);
CREATE INDEX payments_refund_of ON payments (refund_of);

CREATE TABLE day_closings (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  business_date TEXT NOT NULL,
  opening_float_paise INTEGER NOT NULL CHECK (opening_float_paise >= 0),
  cash_paise INTEGER NOT NULL,
  card_paise INTEGER NOT NULL,
  upi_paise INTEGER NOT NULL,
  bank_transfer_paise INTEGER NOT NULL,
  cheque_paise INTEGER NOT NULL,
  insurance_paise INTEGER NOT NULL,
  refunds_paise INTEGER NOT NULL,
  cash_refunds_paise INTEGER NOT NULL,
  payments_count INTEGER NOT NULL,
  pending_cheques_paise INTEGER NOT NULL,
  expected_cash_paise INTEGER NOT NULL,
  counted_cash_paise INTEGER NOT NULL CHECK (counted_cash_paise >= 0),
  difference_paise INTEGER NOT NULL,
  notes TEXT,
  closed_by INTEGER NOT NULL REFERENCES users(id),
  closed_at TEXT NOT NULL,
  UNIQUE (organization_id, user_id, business_date)
);
CREATE INDEX day_closings_org_date ON day_closings (organization_id, business_date);
`;

const OLD_METHODS = "CHECK (method IN ('cash','card','upi','netbanking','cheque'))";
const NEW_METHODS = "CHECK (method IN ('cash','card','upi','bank_transfer','cheque','insurance'))";

/** SQLite: the method CHECK changes (a table rebuild), then netbanking rows and the value dates in each lab's zone. */
export function sqliteSteps(sqlite: Database.Database): void {
  // The rows are copied as they are, netbanking included (which the new CHECK refuses), and renamed
  // just after: the copy alone skips CHECKs, and every row is checked against the new one below.
  sqlite.pragma('ignore_check_constraints = ON');
  try {
    rebuildTable(sqlite, 'payments', (create) => {
      if (!create.includes(OLD_METHODS)) throw new Error('019: payments method CHECK not found');
      return create.replace(OLD_METHODS, NEW_METHODS);
    });
  } finally {
    sqlite.pragma('ignore_check_constraints = OFF');
  }
  sqlite.exec("UPDATE payments SET method = 'bank_transfer' WHERE method = 'netbanking'");
  const unknown = sqlite
    .prepare(
      "SELECT COUNT(*) AS n FROM payments WHERE method NOT IN ('cash','card','upi','bank_transfer','cheque','insurance')",
    )
    .get() as { n: number };
  if (unknown.n > 0) throw new Error(`019: ${unknown.n} payment(s) with a method lims does not know`);
  const zones = sqlite.prepare('SELECT id, timezone FROM organizations').all() as { id: number; timezone: string }[];
  const rows = sqlite.prepare('SELECT id, organization_id, created_at FROM payments').all() as {
    id: number;
    organization_id: number;
    created_at: string;
  }[];
  const set = sqlite.prepare('UPDATE payments SET value_date = ? WHERE id = ?');
  const zoneOf = new Map(zones.map((z) => [z.id, z.timezone || 'Asia/Kolkata']));
  for (const r of rows)
    set.run(localDate(zoneOf.get(r.organization_id) ?? 'Asia/Kolkata', new Date(r.created_at)), r.id);
}

export const postgres =
  toPostgres(sql) +
  /* sql */ `
ALTER TABLE payments DROP CONSTRAINT payments_method_check;
UPDATE payments SET method = 'bank_transfer' WHERE method = 'netbanking';
ALTER TABLE payments ADD CONSTRAINT payments_method_check ${NEW_METHODS};
UPDATE payments p SET value_date = to_char((p.created_at::timestamptz AT TIME ZONE COALESCE(o.timezone, 'Asia/Kolkata')), 'YYYY-MM-DD')
  FROM organizations o WHERE o.id = p.organization_id;
`;
