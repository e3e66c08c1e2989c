import { useSearchParams } from 'react-router';
import { Eye } from 'lucide-react';
import type { PortalBill } from '@shared/schemas/centre-portal';
import {
  Badge,
  Card,
  DataTable,
  Money,
  NameCell,
  queryState,
  ScreenHeader,
  type Column,
  type RowAction,
} from '@/components';
import { formatDate, useLabFormat } from '@/lib/format';
import { usePortalBills } from '../api';
import { HoldNotice } from '../components/HoldNotice';
import { PortalBillDialog } from '../components/PortalBillDialog';

/** The centre's bills, newest first; one opens to its tubes' labels and its report. */
export default function PortalBillsPage() {
  const fmt = useLabFormat();
  const bills = usePortalBills();
  // The open bill is in the address, so an order lands on its labels and a link can be shared.
  const [params, setParams] = useSearchParams();
  const open = Number(params.get('bill')) || null;
  const show = (id: number | null) => setParams(id ? { bill: String(id) } : {}, { replace: true });
  const columns: Column<PortalBill>[] = [
    {
      key: 'bill',
      header: 'Bill',
      cell: (b) => (
        <NameCell
          name={b.bill_number}
          detail={formatDate(b.created_at, fmt)}
          nameClassName="font-mono text-[13px] break-all"
        />
      ),
    },
    {
      key: 'patient',
      header: 'Patient',
      cell: (b) => <NameCell name={b.patient_name} detail={<span className="font-mono">{b.patient_code}</span>} />,
    },
    { key: 'amount', header: 'Amount', align: 'right', cell: (b) => <Money rupees={b.amount} />, hideOnMobile: true },
    {
      key: 'due',
      header: 'Due',
      align: 'right',
      cell: (b) =>
        b.cancelled ? (
          <Badge tone="grey">Cancelled</Badge>
        ) : (
          <span className="grid justify-items-end">
            <Money rupees={b.due} />
            {b.due > 0 && <span className="text-[13px] text-slate-600">by {formatDate(b.due_date, fmt)}</span>}
          </span>
        ),
    },
  ];
  const actions: RowAction<PortalBill>[] = [
    { label: (b) => `Labels and report of ${b.bill_number}`, icon: <Eye />, onClick: (b) => show(b.id) },
  ];
  return (
    <>
      <ScreenHeader />
      <HoldNotice />
      <Card className="p-3 sm:p-4">
        <DataTable
          columns={columns}
          rows={bills.data}
          getRowId={(b) => b.id}
          caption="Your bills"
          {...queryState(bills)}
          errorTitle="Error Loading Bills"
          rowActions={actions}
          onRowClick={(b) => show(b.id)}
          empty={{ title: 'No bills yet', hint: 'Order tests for a patient and the bill appears here.' }}
        />
      </Card>
      <PortalBillDialog billId={open} onClose={() => show(null)} />
    </>
  );
}
