import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invoicesApi } from '@shared/api/invoices';
import { payersApi } from '@shared/api/payers';
import type { InvoiceCreate, InvoiceMarkPaid } from '@shared/schemas/invoices';
import type { PayerCreate } from '@shared/schemas/payers';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (q: Record<string, unknown>) => ['invoices', 'list', q] as const,
  payers: (q: Record<string, unknown>) => ['payers', 'list', q] as const,
};

export function useInvoicePage(q: { search: string; status?: string; page: number; limit: number }) {
  return useQuery({
    queryKey: invoiceKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        invoicesApi.list,
        {
          query: {
            search: q.search || undefined,
            status: q.status as never,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function usePayerPage(q: { search: string; page: number; limit: number }) {
  return useQuery({
    queryKey: invoiceKeys.payers(q),
    queryFn: ({ signal }) =>
      call(payersApi.list, { query: { search: q.search || undefined, page: q.page, limit: q.limit } }, signal),
    placeholderData: keepPreviousData,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: invoiceKeys.all }),
      qc.invalidateQueries({ queryKey: ['payers'] }),
      qc.invalidateQueries({ queryKey: ['bills'] }),
    ]);
}

export function useCreateInvoice() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: InvoiceCreate) => call(invoicesApi.create, { body }).then((r) => r.invoice),
    onSuccess: (i) => {
      notify.success('Draft invoice created', `${i.recipient_name}: ${i.bill_count} bill(s)`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to create the invoice', err),
  });
}

export function useInvoiceAction() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (
      a:
        | { id: number; kind: 'issue' }
        | { id: number; kind: 'paid'; body: InvoiceMarkPaid }
        | { id: number; kind: 'cancel'; reason: string }
        | { id: number; kind: 'delete' },
    ) => {
      if (a.kind === 'issue') return (await call(invoicesApi.issue, { params: { id: a.id }, body: {} })).invoice;
      if (a.kind === 'paid') return (await call(invoicesApi.markPaid, { params: { id: a.id }, body: a.body })).invoice;
      if (a.kind === 'cancel')
        return (await call(invoicesApi.cancel, { params: { id: a.id }, body: { reason: a.reason } })).invoice;
      return (await call(invoicesApi.remove, { params: { id: a.id } })).invoice;
    },
    onSuccess: (i, a) => {
      const what = {
        issue: `Issued as ${i.invoice_number}`,
        paid: 'Marked paid',
        cancel: `Cancelled: credit note ${i.credit_note_number}`,
        delete: 'Draft deleted',
      }[a.kind];
      notify.success(what, i.recipient_name);
      return invalidate();
    },
    onError: (err) => notify.error('The invoice was not changed', err),
  });
}

export function useCreatePayer() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: PayerCreate) => call(payersApi.create, { body }).then((r) => r.payer),
    onSuccess: (p) => {
      notify.success('Payer added', p.name);
      return invalidate();
    },
  });
}
