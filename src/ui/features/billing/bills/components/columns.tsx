import { Download, Eye, Pencil, Printer } from 'lucide-react';
import type { Bill } from '@shared/schemas/bills';
import { Badge, DateText, Money, type Column, type RowAction } from '@/components';
import { downloadBillPdf, printBillPdf } from './billActions';
import { doctorName, patientName } from '@/lib/billText';

/**
 * The bill table's columns, shared by Bills List and Billing Management (each picks its spec order).
 * On phones the number cell also carries patient and date, and the amount cell the status.
 */
export const billColumns = {
  number: {
    key: 'bill_number',
    header: 'Bill Number',
    cell: (b) => (
      <div className="min-w-0">
        <div className="font-mono text-[13px] whitespace-nowrap text-slate-900">{b.bill_number}</div>
        <div className="text-xs text-slate-600 md:hidden">
          {patientName(b)} · <DateText value={b.bill_date} />
        </div>
      </div>
    ),
  },
  patient: {
    key: 'patient',
    header: 'Patient',
    hideOnMobile: true,
    cell: (b) => (
      <div className="min-w-0">
        <div className="font-medium text-slate-900">{patientName(b)}</div>
        <div className="font-mono text-xs text-slate-500">{b.patient_patient_id || 'N/A'}</div>
      </div>
    ),
  },
  date: { key: 'bill_date', header: 'Bill Date', hideOnMobile: true, cell: (b) => <DateText value={b.bill_date} /> },
  amount: {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (b) => (
      <div>
        <Money rupees={b.final_amount} />
        {b.payment_status === 'partial' && (
          <div className="text-xs whitespace-nowrap text-slate-600">
            Due <Money rupees={b.balance} />
          </div>
        )}
        {/* Phones hide the Status column: the status goes under the amount. */}
        <div className="mt-0.5 md:hidden">
          <Badge status={b.status} />
        </div>
      </div>
    ),
  },
  status: { key: 'status', header: 'Status', hideOnMobile: true, cell: (b) => <Badge status={b.status} /> },
  payment: {
    key: 'payment_status',
    header: 'Payment Status',
    hideOnMobile: true,
    cell: (b) => <Badge status={b.payment_status} />,
  },
  doctor: {
    key: 'doctor',
    header: 'Doctor',
    hideOnMobile: true,
    cell: (b) => {
      const name = doctorName(b);
      return name === 'No doctor' ? <span className="text-slate-500">No doctor</span> : name;
    },
  },
} satisfies Record<string, Column<Bill>>;

export interface BillRowActionsOptions {
  onView: (b: Bill) => void;
  /** Absent when the user cannot edit bills (manage_bills). */
  onEdit?: (b: Bill) => void;
  /** Phones: leave Print and Download to the Bill Details dialog so the row fits 390 px. */
  compact?: boolean;
}

/** View, Edit (manage_bills, not on cancelled bills), Print, Download: each names its bill. */
export function billRowActions({ onView, onEdit, compact = false }: BillRowActionsOptions): RowAction<Bill>[] {
  const actions: RowAction<Bill>[] = [{ label: (b) => `View bill ${b.bill_number}`, icon: <Eye />, onClick: onView }];
  if (onEdit) {
    actions.push({
      label: (b) => `Edit bill ${b.bill_number}`,
      icon: <Pencil />,
      onClick: onEdit,
      // Disabled, not hidden, so the icons stay in line; the server refuses edits to a cancelled bill.
      disabled: (b) => b.status === 'cancelled',
    });
  }
  if (compact) return actions;
  actions.push(
    { label: (b) => `Print bill ${b.bill_number}`, icon: <Printer />, onClick: printBillPdf },
    { label: (b) => `Download bill ${b.bill_number}`, icon: <Download />, onClick: downloadBillPdf },
  );
  return actions;
}
