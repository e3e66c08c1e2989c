import { useState } from 'react';
import { FileText, Pencil, Tags } from 'lucide-react';
import { PAYER_TYPE_LABELS, type Payer } from '@shared/schemas/payers';
import { NameCell, Badge, Card, ListTable, Money, type Column, type RowAction } from '@/components';
import type { usePagedList } from '@/lib/usePagedList';
import { usePayerPage } from '../api';
import { PayerDialog } from './PayerDialog';
import { PayerDetailDialog } from './PayerDetailDialog';

const payerColumns: Column<Payer>[] = [
  {
    key: 'name',
    header: 'Payer',
    cell: (p) => <NameCell name={p.name} detail={PAYER_TYPE_LABELS[p.type]} />,
  },
  {
    key: 'gstin',
    header: 'GSTIN',
    cell: (p) => <span className="font-mono text-[13px]">{p.gstin ?? '—'}</span>,
    hideOnMobile: true,
  },
  { key: 'state', header: 'State', cell: (p) => p.state ?? '—', hideOnMobile: true },
  { key: 'terms', header: 'Terms', cell: (p) => `${p.payment_terms_days} days`, hideOnMobile: true },
  {
    key: 'limit',
    header: 'Credit limit',
    align: 'right',
    cell: (p) => (p.credit_limit === null ? 'No limit' : <Money rupees={p.credit_limit} />),
    hideOnMobile: true,
  },
  { key: 'balance', header: 'Owes', align: 'right', cell: (p) => <Money rupees={p.balance} /> },
  {
    key: 'status',
    header: 'Status',
    cell: (p) => (
      <Badge tone={p.status === 'active' ? 'green' : 'grey'}>{p.status === 'active' ? 'Active' : 'Inactive'}</Badge>
    ),
  },
];

/** The payers tab: each payer can be edited, and has its dated price list and its statement. */
export function PayerList({ list, canManage }: { list: ReturnType<typeof usePagedList>; canManage: boolean }) {
  const payers = usePayerPage({ search: list.search, page: list.page, limit: list.limit });
  const [editing, setEditing] = useState<Payer | null>(null);
  const [detail, setDetail] = useState<{ payer: Payer; tab: 'prices' | 'statement' } | null>(null);
  const rowActions: RowAction<Payer>[] = [
    { label: (p) => `Edit ${p.name}`, icon: <Pencil />, onClick: setEditing, hidden: () => !canManage },
    { label: (p) => `Price list of ${p.name}`, icon: <Tags />, onClick: (p) => setDetail({ payer: p, tab: 'prices' }) },
    {
      label: (p) => `Statement of ${p.name}`,
      icon: <FileText />,
      onClick: (p) => setDetail({ payer: p, tab: 'statement' }),
    },
  ];
  return (
    <Card className="min-w-0">
      <ListTable
        list={{ ...list, filters: [] }}
        query={payers}
        rows={(p) => p.payers}
        search={{ placeholder: 'Search by name, GSTIN or contact', label: 'Search payers' }}
        noun="Payers"
        columns={payerColumns}
        getRowId={(p) => p.id}
        empty={{
          title: 'No payers yet',
          hint: 'Add the companies, insurers, hospitals and collection centres that pay for patients.',
        }}
        rowActions={rowActions}
      />
      {canManage && (
        <PayerDialog open={editing !== null} payer={editing} onOpenChange={(o) => !o && setEditing(null)} />
      )}
      <PayerDetailDialog
        payer={detail?.payer ?? null}
        tab={detail?.tab ?? 'prices'}
        canManage={canManage}
        onTabChange={(tab) => setDetail((d) => (d ? { ...d, tab } : d))}
        onClose={() => setDetail(null)}
      />
    </Card>
  );
}
