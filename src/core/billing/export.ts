import { countedCsv, csvHeader, csvRows } from '../export/csv.js';
import { writeAudit } from '../audit/audit.js';
import type { Actor } from '../context.js';
import type { Db } from '../db/connection.js';
import type { BillListQuery } from '../../shared/schemas/bills.js';
import { organizationTimezone } from '../settings/service.js';
import { localDate } from '../../shared/time.js';
import { toBill } from './mappers.js';
import { applyBillFilters, billsQuery, selectBillColumns } from './repository.js';

const COLUMNS = [
  'bill_number',
  'bill_date',
  'patient_patient_id',
  'patient_first_name',
  'patient_last_name',
  'doctor_first_name',
  'doctor_last_name',
  'payer_name',
  'subtotal',
  'consultation_fee',
  'discount_percentage',
  'discount_amount',
  'tax_percentage',
  'tax_amount',
  'final_amount',
  'paid_amount',
  'balance',
  'status',
  'payment_status',
  'payment_method',
  'due_date',
  'created_at',
] as const;

/** Every bill matching the Bills List filters, newest first, as CSV chunks (header first). */
export async function* billsCsv(db: Db, organizationId: number, f: BillListQuery): AsyncGenerator<string> {
  const timeZone = await organizationTimezone(db, organizationId);
  const today = localDate(timeZone);
  yield csvHeader(COLUMNS);
  const chunk = 1000;
  for (let offset = 0; ; offset += chunk) {
    const rows = await selectBillColumns(applyBillFilters(billsQuery(db, organizationId), f, timeZone, today))
      .orderBy('b.created_at', 'desc')
      .orderBy('b.id', 'desc')
      .limit(chunk)
      .offset(offset)
      .execute();
    if (!rows.length) return;
    yield csvRows(
      rows.map((r) => {
        const b = toBill(r, timeZone, today);
        return COLUMNS.map((c) => b[c]);
      }),
    );
    if (rows.length < chunk) return;
  }
}

/** The Bills List export: the CSV chunks, recorded in the audit trail with who, which filters and how many rows. */
export async function exportBillsCsv(db: Db, actor: Actor, f: BillListQuery): Promise<AsyncGenerator<string>> {
  const { page: _p, limit: _l, ...filters } = f;
  return countedCsv(billsCsv(db, actor.organizationId, f), (rows, complete) =>
    writeAudit(db, actor, {
      action: 'export',
      entity: 'bill',
      newValues: { format: 'csv', ...filters, rows, complete },
    }),
  );
}
