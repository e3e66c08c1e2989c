import type { Centre, CentreHold, ShareBasis } from '../../shared/schemas/centres.js';
import type { CentreRow } from './repository.js';

/** Rows of src/core/centres -> API objects (money in rupees, shares in percent). */

export const bpToPercent = (bp: number) => bp / 100;

export function toCentre(r: CentreRow, hold: CentreHold): Centre {
  return {
    id: r.id,
    payer_id: r.payer_id,
    name: r.name,
    contact_person: r.contact_person,
    phone: r.phone,
    email: r.email,
    address: r.address,
    gstin: r.gstin,
    state_code: r.state_code,
    discount_percent: Number(r.discount_percent),
    credit_days: r.payment_terms_days,
    credit_limit: r.credit_limit_paise === null ? null : r.credit_limit_paise / 100,
    share_basis: r.share_basis as ShareBasis,
    share_percent: bpToPercent(r.share_bp),
    status: r.status as Centre['status'],
    balance: r.balance_paise / 100,
    bills: r.bill_count,
    patients: r.patient_count,
    hold,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A bill of the centre's as the centre sees it (the desk's list, the centre's portal): money in rupees. */
export function toCentreBillMoney(b: {
  id: number;
  bill_number: string;
  patient_id: number;
  first_name: string;
  last_name: string;
  created_at: string;
  due_date: string;
  final_amount_paise: number;
  paid_paise: number;
}) {
  return {
    id: b.id,
    bill_number: b.bill_number,
    patient_id: b.patient_id,
    patient_name: `${b.first_name} ${b.last_name}`.trim(),
    created_at: b.created_at,
    due_date: b.due_date,
    amount: b.final_amount_paise / 100,
    paid: b.paid_paise / 100,
  };
}
