import type { Selectable } from 'kysely';
import type { BillItemsTable, BillsTable } from './tables.js';
import type { PaymentsTable } from '../payments/tables.js';
import { billStatusOf, paymentStatusOf } from '../../shared/billing.js';
import type { Bill, BillItem, Payment } from '../../shared/schemas/bills.js';
import { localDate } from '../../shared/time.js';

export type BillRow = Selectable<BillsTable> & {
  patient_first_name: string;
  patient_last_name: string;
  patient_code: string;
  doctor_first_name: string | null;
  doctor_last_name: string | null;
  payer_name: string | null;
  invoice_number: string | null;
  invoice_status: string | null;
};

const rupees = (p: number) => p / 100;

export function toBill(r: BillRow, timeZone: string, today: string): Bill {
  return {
    id: r.id,
    bill_number: r.bill_number,
    patient_id: r.patient_id,
    doctor_id: r.doctor_id,
    visit_type: r.visit_type,
    patient_first_name: r.patient_first_name,
    patient_last_name: r.patient_last_name,
    patient_patient_id: r.patient_code,
    doctor_first_name: r.doctor_first_name,
    doctor_last_name: r.doctor_last_name,
    payer_id: r.payer_id,
    payer_name: r.payer_name,
    invoice_id: r.invoice_id,
    invoice_number: r.invoice_number,
    invoice_status: r.invoice_id === null ? null : r.invoice_status === 'draft' ? 'draft' : 'issued',
    subtotal: rupees(r.subtotal_paise),
    consultation_fee: rupees(r.consultation_fee_paise),
    total_before_discount: rupees(r.total_before_discount_paise),
    discount_percentage: r.discount_percentage,
    discount_amount: rupees(r.discount_amount_paise),
    tax_percentage: r.tax_percentage,
    tax_amount: rupees(r.tax_amount_paise),
    total_amount: rupees(r.final_amount_paise),
    final_amount: rupees(r.final_amount_paise),
    paid_amount: rupees(r.paid_paise),
    balance: rupees(r.final_amount_paise - r.paid_paise),
    status: billStatusOf({
      cancelled: r.cancelled_at !== null,
      finalPaise: r.final_amount_paise,
      paidPaise: r.paid_paise,
      dueDate: r.due_date,
      today,
    }),
    payment_status: paymentStatusOf(r.final_amount_paise, r.paid_paise),
    payment_method: r.payment_method,
    bill_date: localDate(timeZone, new Date(r.created_at)),
    due_date: r.due_date,
    notes: r.notes,
    cancelled_at: r.cancelled_at,
    cancel_reason: r.cancel_reason,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const KIND: Record<string, string> = { test: 'Test', profile: 'Profile', package: 'Package' };

export function toBillItem(r: Selectable<BillItemsTable>): BillItem {
  const item_id = r.test_id ?? r.profile_id ?? r.package_id ?? 0;
  return {
    id: r.id,
    item_type: r.item_type as BillItem['item_type'],
    item_id,
    particulars: `${r.name} (${KIND[r.item_type] ?? r.item_type})`,
    name: r.name,
    code: r.code,
    qty: r.qty,
    list_price: rupees(r.list_price_paise),
    price: rupees(r.unit_price_paise),
    gst_percent: r.gst_percent,
    discount_percent: r.discount_percent,
    discount_amount: rupees(r.discount_amount_paise),
    total: rupees(r.total_paise),
    tax_category: r.tax_category,
    sac_code: r.sac_code,
    taxable: rupees(r.taxable_paise),
    tax: rupees(r.tax_paise),
  };
}

export function toPayment(r: Selectable<PaymentsTable> & { received_by_name: string | null }): Payment {
  return {
    id: r.id,
    bill_id: r.bill_id,
    amount: rupees(r.amount_paise),
    method: r.method,
    reference: r.reference,
    reason: r.reason,
    received_by: r.received_by,
    received_by_name: r.received_by_name,
    created_at: r.created_at,
    value_date: r.value_date,
    kind: r.kind,
    status: r.status,
  };
}
