import { useMemo, useState } from 'react';
import { Ban, CheckCircle2, FileDown, Plus, Send, Trash2 } from 'lucide-react';
import { INVOICE_STATUSES, INVOICE_STATUS_LABELS, type Invoice } from '@shared/schemas/invoices';
import { METHOD_REFERENCE } from '@shared/schemas/payments';
import { invoicesApi } from '@shared/api/invoices';
import type { PAYMENT_METHODS } from '@shared/billing';
import {
  Badge,
  Button,
  Card,
  DateText,
  Dialog,
  FormField,
  Input,
  ListTable,
  Money,
  PageHeader,
  RequirePermission,
  Select,
  type BadgeTone,
  type Column,
  type RowAction,
} from '@/components';
import { Tabs } from '@/components/Tabs';
import { useScreen } from '@/lib/screens';
import { useLabFormat } from '@/lib/format';
import { localDate } from '@shared/time';
import { contractUrl } from '@/lib/api';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { METHOD_OPTIONS } from '@/lib/billText';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useCreateInvoice, useInvoiceAction, useInvoicePage, usePayerPage } from '../api';
import { CancelInvoiceDialog } from '../components/CancelInvoiceDialog';
import { PayerDialog } from '../components/PayerDialog';
import { PayerList } from '../components/PayerList';
import { fieldErrors } from '@/lib/forms';

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
      <div className="min-w-0">
        <span className="block font-mono text-[13px] font-medium text-slate-900">{i.invoice_number ?? 'Draft'}</span>
        <span className="block text-[13px] text-slate-600">{i.recipient_name}</span>
      </div>
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

/** Invoice Management (spec 001): GST invoices and the payers they are raised for. */
export default function InvoicesPage() {
  const screen = useScreen();
  return (
    <RequirePermission permission="view_bills" what="invoices" title={screen.title} subtitle={screen.subtitle}>
      <InvoicesScreen />
    </RequirePermission>
  );
}

const EXTRA = { tab: 'invoices' };

function InvoicesScreen() {
  const screen = useScreen();
  const me = useCurrentUser();
  const canManage = can(me, 'manage_bills');
  const filters: ListFilter[] = useMemo(
    () => [
      {
        key: 'status',
        label: 'Status',
        options: [
          { value: 'all', label: 'All Statuses' },
          ...INVOICE_STATUSES.map((s) => ({ value: s, label: INVOICE_STATUS_LABELS[s] })),
        ],
      },
    ],
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
      <PageHeader title={screen.title} subtitle={screen.subtitle} actions={actions} />
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
        caption="Invoices"
        itemLabel="invoices"
        columns={invoiceColumns}
        getRowId={(i) => i.id}
        errorTitle="Error Loading Invoices"
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

function MarkPaidDialog({ invoice, onClose }: { invoice: Invoice | null; onClose: () => void }) {
  const act = useInvoiceAction();
  const [method, setMethod] = useState<(typeof PAYMENT_METHODS)[number]>('bank_transfer');
  const [reference, setReference] = useState('');
  const [bank, setBank] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const need = METHOD_REFERENCE[method];
  return (
    <Dialog
      open={invoice !== null}
      onOpenChange={(o) => !o && onClose()}
      title={`Mark ${invoice?.invoice_number ?? ''} paid`}
      description="Records what is still due on each of its bills as a payment."
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={act.isPending}
            onClick={() =>
              invoice &&
              act.mutate(
                {
                  id: invoice.id,
                  kind: 'paid',
                  body: { method, reference: reference.trim() || null, bank: need.bank ? bank.trim() || null : null },
                },
                {
                  onSuccess: onClose,
                  onError: (e) => setErrors(fieldErrors(e)),
                },
              )
            }
          >
            Record Payment
          </Button>
        </>
      }
    >
      <div className="grid gap-3">
        <FormField label="Method">
          <Select
            value={method}
            onChange={(e) => setMethod(e.target.value as typeof method)}
            options={METHOD_OPTIONS}
          />
        </FormField>
        <FormField label={need.label} required={need.required} error={errors.reference}>
          <Input value={reference} onChange={(e) => setReference(e.target.value)} />
        </FormField>
        {need.bank && (
          <FormField label="Bank" required error={errors.bank}>
            <Input value={bank} onChange={(e) => setBank(e.target.value)} />
          </FormField>
        )}
        {errors.form && (
          <p role="alert" className="text-[13px] text-red-700">
            {errors.form}
          </p>
        )}
      </div>
    </Dialog>
  );
}

function NewInvoiceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const payers = usePayerPage({ search: '', page: 1, limit: 200 });
  const create = useCreateInvoice();
  // The lab's calendar day, not UTC's: at 01:00 in Bengaluru the month has already turned.
  const today = localDate(useLabFormat().timeZone);
  const [payer, setPayer] = useState('');
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New Invoice"
      description="A draft for a payer’s bills of a period that are not on an invoice yet. Issue it to give it its number."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            disabled={create.isPending}
            onClick={() =>
              create.mutate(
                { payer_id: payer ? Number(payer) : undefined, period_from: from, period_to: to },
                {
                  onSuccess: () => onOpenChange(false),
                  onError: (e) => setErrors(fieldErrors(e)),
                },
              )
            }
          >
            Create Draft
          </Button>
        </>
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Payer" error={errors.payer_id} className="sm:col-span-2">
          <Select
            value={payer}
            onChange={(e) => setPayer(e.target.value)}
            placeholder="Select a payer"
            options={(payers.data?.payers ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          />
        </FormField>
        <FormField label="From" error={errors.period_from}>
          <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </FormField>
        <FormField label="To" error={errors.period_to}>
          <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </FormField>
      </div>
    </Dialog>
  );
}
