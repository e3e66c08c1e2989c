import { useMemo, useState } from 'react';
import { Ban, CheckCircle2, FileDown, Plus, Send, Trash2 } from 'lucide-react';
import { INVOICE_STATUSES, INVOICE_STATUS_LABELS, type Invoice } from '@shared/schemas/invoices';
import { METHOD_REFERENCE } from '@shared/schemas/payments';
import { invoicesApi } from '@shared/api/invoices';
import type { PAYMENT_METHODS } from '@shared/billing';
import {
  NameCell,
  Badge,
  Button,
  Card,
  DateText,
  FormDialog,
  FormField,
  Input,
  ListTable,
  Money,
  ScreenHeader,
  Select,
  type BadgeTone,
  type Column,
  type RowAction,
} from '@/components';
import { Tabs } from '@/components/Tabs';
import { useLabFormat } from '@/lib/format';
import { localDate } from '@shared/time';
import { contractUrl } from '@/lib/api';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { METHOD_OPTIONS } from '@/lib/billText';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useCreateInvoice, useInvoiceAction, useInvoicePage, usePayerPage } from '../api';
import { CancelInvoiceDialog } from '../components/CancelInvoiceDialog';
import { PayerDialog } from '../components/PayerDialog';
import { PayerList } from '../components/PayerList';
import { useFieldForm } from '@/lib/forms';

const TONES: Record<Invoice['status'], BadgeTone> = {
  draft: 'grey',
  pending: 'amber',
  paid: 'green',
  overdue: 'red',
  cancelled: 'grey',
};

const invoiceColumns: Column<Invoice>[] = [
  {
    key: 'number',
    header: 'Invoice',
    cell: (i) => (
      <NameCell name={i.invoice_number ?? 'Draft'} nameClassName="font-mono text-[13px]" detail={i.recipient_name} />
    ),
  },
  {
    key: 'date',
    header: 'Date',
    cell: (i) => (i.invoice_date ? <DateText value={i.invoice_date} /> : '—'),
    hideOnMobile: true,
  },
  { key: 'due', header: 'Due', cell: (i) => (i.due_date ? <DateText value={i.due_date} /> : '—'), hideOnMobile: true },
  { key: 'amount', header: 'Amount', align: 'right', cell: (i) => <Money rupees={i.amount} />, hideOnMobile: true },
  {
    key: 'tax',
    header: 'GST',
    align: 'right',
    cell: (i) => (
      <span title={i.inter_state ? 'IGST' : 'CGST + SGST'}>
        <Money rupees={i.tax} />
      </span>
    ),
    hideOnMobile: true,
  },
  { key: 'total', header: 'Total', align: 'right', cell: (i) => <Money rupees={i.total} /> },
  {
    key: 'status',
    header: 'Status',
    cell: (i) => <Badge tone={TONES[i.status]}>{INVOICE_STATUS_LABELS[i.status]}</Badge>,
  },
];

const EXTRA = { tab: 'invoices' };

/** Invoice Management (spec 001): GST invoices and the payers they are raised for. */
export default function InvoicesPage() {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_bills');
  const filters: ListFilter[] = useMemo(
    () => [choiceFilter('status', 'Status', 'All Statuses', INVOICE_STATUSES, INVOICE_STATUS_LABELS)],
    [],
  );
  const list = usePagedList({ filters, pageSizes: [10, 20, 50], defaultLimit: 20, extra: EXTRA });
  const tab = String(list.state.tab) === 'payers' ? 'payers' : 'invoices';
  const [creating, setCreating] = useState(false);
  const [addingPayer, setAddingPayer] = useState(false);
  const actions = (
    <div className="flex flex-wrap gap-2">
      {canManage && (
        <Button variant="outline" onClick={() => setAddingPayer(true)}>
          <Plus />
          Add Payer
        </Button>
      )}
      {canManage && (
        <Button onClick={() => setCreating(true)}>
          <Plus />
          New Invoice
        </Button>
      )}
    </div>
  );
  return (
    <>
      <ScreenHeader actions={actions} />
      <Tabs
        label="Invoices and payers"
        value={tab}
        onValueChange={(v) => list.setState({ tab: v, page: 1, search: '' })}
        tabs={[
          {
            value: 'invoices',
            label: 'Invoices',
            content: tab === 'invoices' ? <InvoiceList list={list} canManage={canManage} /> : null,
          },
          {
            value: 'payers',
            label: 'Payers',
            content: tab === 'payers' ? <PayerList list={list} canManage={canManage} /> : null,
          },
        ]}
        className="mb-4"
      />
      {canManage && <NewInvoiceDialog open={creating} onOpenChange={setCreating} />}
      {canManage && <PayerDialog open={addingPayer} onOpenChange={setAddingPayer} />}
    </>
  );
}

function InvoiceList({ list, canManage }: { list: ReturnType<typeof usePagedList>; canManage: boolean }) {
  const invoices = useInvoicePage({
    search: list.search,
    status: list.apiFilters.status,
    page: list.page,
    limit: list.limit,
  });
  const act = useInvoiceAction();
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [cancelling, setCancelling] = useState<Invoice | null>(null);
  const rowActions: RowAction<Invoice>[] = [
    {
      label: (i) => `PDF of ${i.invoice_number ?? 'draft invoice'}`,
      icon: <FileDown />,
      onClick: (i) => window.open(contractUrl(invoicesApi.pdf, { params: { id: i.id } }), '_blank', 'noopener'),
    },
    {
      label: (i) => `Issue invoice for ${i.recipient_name}`,
      icon: <Send />,
      onClick: (i) => act.mutate({ id: i.id, kind: 'issue' }),
      hidden: (i) => !canManage || i.status !== 'draft',
    },
    {
      label: (i) => `Mark ${i.invoice_number} paid`,
      icon: <CheckCircle2 />,
      onClick: setPaying,
      hidden: (i) => !canManage || (i.status !== 'pending' && i.status !== 'overdue'),
    },
    {
      label: (i) => `Cancel ${i.invoice_number} with a credit note`,
      icon: <Ban />,
      destructive: true,
      onClick: setCancelling,
      hidden: (i) => !canManage || (i.status !== 'pending' && i.status !== 'overdue'),
    },
    {
      label: () => 'Delete draft',
      icon: <Trash2 />,
      destructive: true,
      onClick: (i) => act.mutate({ id: i.id, kind: 'delete' }),
      hidden: (i) => !canManage || i.status !== 'draft',
    },
  ];
  return (
    <Card className="min-w-0">
      <ListTable
        list={list}
        query={invoices}
        rows={(p) => p.invoices}
        search={{ placeholder: 'Search by invoice number, recipient or GSTIN', label: 'Search invoices' }}
        noun="Invoices"
        columns={invoiceColumns}
        getRowId={(i) => i.id}
        empty={{
          title: 'No invoices found',
          filteredHint: 'Try adjusting your search or filter criteria.',
          hint: 'Raise a payer’s invoice for a period, or a patient’s tax invoice for one bill, with New Invoice.',
        }}
        rowActions={rowActions}
      />
      <MarkPaidDialog invoice={paying} onClose={() => setPaying(null)} />
      <CancelInvoiceDialog invoice={cancelling} onClose={() => setCancelling(null)} />
    </Card>
  );
}

type Method = (typeof PAYMENT_METHODS)[number];

function MarkPaidDialog({ invoice, onClose }: { invoice: Invoice | null; onClose: () => void }) {
  const act = useInvoiceAction();
  const {
    values: v,
    set,
    errors,
    showErrors,
  } = useFieldForm(() => ({ method: 'bank_transfer' as Method, reference: '', bank: '' }), {
    resetFor: invoice,
  });
  const need = METHOD_REFERENCE[v.method];
  return (
    <FormDialog
      open={invoice !== null}
      onOpenChange={(o) => !o && onClose()}
      title={`Mark ${invoice?.invoice_number ?? ''} paid`}
      description="Records what is still due on each of its bills as a payment."
      busy={act.isPending}
      form={{
        id: 'mark-paid-form',
        columns: 1,
        onSubmit: (e) => {
          e.preventDefault();
          if (!invoice) return;
          act.mutate(
            {
              id: invoice.id,
              kind: 'paid',
              body: {
                method: v.method,
                reference: v.reference.trim() || null,
                bank: need.bank ? v.bank.trim() || null : null,
              },
            },
            { onSuccess: onClose, onError: showErrors },
          );
        },
      }}
      submitLabel="Record Payment"
      busyLabel="Recording..."
      error={errors.form}
    >
      <FormField label="Method">
        <Select value={v.method} onChange={(e) => set('method', e.target.value as Method)} options={METHOD_OPTIONS} />
      </FormField>
      <FormField label={need.label} required={need.required} error={errors.reference}>
        <Input value={v.reference} onChange={(e) => set('reference', e.target.value)} />
      </FormField>
      {need.bank && (
        <FormField label="Bank" required error={errors.bank}>
          <Input value={v.bank} onChange={(e) => set('bank', e.target.value)} />
        </FormField>
      )}
    </FormDialog>
  );
}

function NewInvoiceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const payers = usePayerPage({ search: '', page: 1, limit: 200 });
  const create = useCreateInvoice();
  // The lab's calendar day, not UTC's: at 01:00 in Bengaluru the month has already turned.
  const today = localDate(useLabFormat().timeZone);
  const {
    values: v,
    set,
    errors,
    showErrors,
  } = useFieldForm(() => ({ payer: '', from: `${today.slice(0, 8)}01`, to: today }), {
    resetFor: open ? 'new' : null,
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New Invoice"
      description="A draft for a payer’s bills of a period that are not on an invoice yet. Issue it to give it its number."
      busy={create.isPending}
      form={{
        id: 'new-invoice-form',
        onSubmit: (e) => {
          e.preventDefault();
          create.mutate(
            { payer_id: v.payer ? Number(v.payer) : undefined, period_from: v.from, period_to: v.to },
            { onSuccess: () => onOpenChange(false), onError: showErrors },
          );
        },
      }}
      submitLabel="Create Draft"
      busyLabel="Creating..."
      error={errors.form}
    >
      <FormField label="Payer" error={errors.payer_id} className="sm:col-span-2">
        <Select
          value={v.payer}
          onChange={(e) => set('payer', e.target.value)}
          placeholder="Select a payer"
          options={(payers.data?.payers ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
        />
      </FormField>
      <FormField label="From" error={errors.period_from}>
        <Input type="date" value={v.from} onChange={(e) => set('from', e.target.value)} />
      </FormField>
      <FormField label="To" error={errors.period_to}>
        <Input type="date" value={v.to} onChange={(e) => set('to', e.target.value)} />
      </FormField>
    </FormDialog>
  );
}
