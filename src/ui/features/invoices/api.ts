import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invoicesApi } from '@shared/api/invoices';
import { payersApi } from '@shared/api/payers';
import type { InvoiceCreate, InvoiceMarkPaid } from '@shared/schemas/invoices';
import type { PayerCreate, PayerPriceCreate, PayerUpdate } from '@shared/schemas/payers';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (q: Record<string, unknown>) => ['invoices', 'list', q] as const,
  payers: (q: Record<string, unknown>) => ['payers', 'list', q] as const,
  prices: (id: number) => ['payers', 'prices', id] as const,
  statement: (id: number, from: string, to: string) => ['payers', 'statement', id, from, to] as const,
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

export function useUpdatePayer() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (a: { id: number; body: PayerUpdate }) =>
      call(payersApi.update, { params: { id: a.id }, body: a.body }).then((r) => r.payer),
    onSuccess: (p) => {
      notify.success('Payer saved', p.name);
      return invalidate();
    },
  });
}

export function usePayerPrices(id: number | null) {
  return useQuery({
    queryKey: invoiceKeys.prices(id ?? 0),
    queryFn: ({ signal }) => call(payersApi.prices, { params: { id: id! } }, signal).then((r) => r.prices),
    enabled: id !== null,
  });
}

export function useAddPayerPrice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { id: number; body: PayerPriceCreate }) =>
      call(payersApi.addPrice, { params: { id: a.id }, body: a.body }).then((r) => r.prices),
    onSuccess: (_r, a) => {
      notify.success('Price added', 'Bills from its first day use it');
      return qc.invalidateQueries({ queryKey: invoiceKeys.prices(a.id) });
    },
  });
}

export function useRemovePayerPrice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { id: number; priceId: number }) =>
      call(payersApi.removePrice, { params: { id: a.id, priceId: a.priceId } }).then((r) => r.prices),
    onSuccess: (_r, a) => {
      notify.success('Price removed', 'Bills already made keep their prices');
      return qc.invalidateQueries({ queryKey: invoiceKeys.prices(a.id) });
    },
    onError: (err) => notify.error('The price was not removed', err),
  });
}

export function usePayerStatement(id: number | null, from: string, to: string) {
  return useQuery({
    queryKey: invoiceKeys.statement(id ?? 0, from, to),
    queryFn: ({ signal }) =>
      call(payersApi.statement, { params: { id: id! }, query: { from, to } }, signal).then((r) => r.statement),
    enabled: id !== null && from !== '' && to !== '' && from <= to,
  });
}
