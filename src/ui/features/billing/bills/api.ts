import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentMethod } from '@shared/billing';
import type { Bill, BillItemsUpdate, BillUpdate } from '@shared/schemas/bills';
import { billsApi } from '@shared/api/bills';
import { resultsApi } from '@shared/api/results';
import { paymentsApi } from '@shared/api/payments';
import { billingSettingsApi } from '@shared/api/billing-settings';
import type { BillingSettingsUpdate } from '@shared/schemas/billing-settings';
import type { CallOutput } from '@shared/api/contract';
import { call, contractUrl } from '@/lib/api';
import { notify } from '@/lib/notify';
import { formatMoney } from '@/lib/format';
import { rupeesToPaise } from '@shared/money';
import { billKeys, useInvalidateBills } from '@/lib/bills';

/** What the Bills List and Billing Management screens ask GET /api/bills for. */
export interface BillFilters {
  search?: string;
  /** pending, paid, partial, overdue, cancelled; "all" or empty leaves it out. */
  status?: string;
  /** paid, unpaid, partial; "all" or empty leaves it out. */
  payment_status?: string;
  /** all, today, week, month, quarter (spec 5). */
  date_range?: string;
}

export interface BillQuery extends BillFilters {
  page: number;
  limit: number;
}

export type BillPage = CallOutput<typeof billsApi.list>;

/** Drops "all" and empty values so the API URL and the cache key carry only real filters. */
export function toApiFilters(f: BillFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.search?.trim()) out.search = f.search.trim();
  if (f.status && f.status !== 'all') out.status = f.status;
  if (f.payment_status && f.payment_status !== 'all') out.payment_status = f.payment_status;
  if (f.date_range && f.date_range !== 'all') out.date_range = f.date_range;
  return out;
}

export const billListKey = (q: BillQuery) =>
  [...billKeys.lists(), { ...toApiFilters(q), page: q.page, limit: q.limit }] as const;

export function fetchBillPage(q: BillQuery, signal?: AbortSignal): Promise<BillPage> {
  return call(billsApi.list, { query: { ...toApiFilters(q), page: q.page, limit: q.limit } }, signal);
}

export function useBills(q: BillQuery) {
  return useQuery({
    queryKey: billListKey(q),
    queryFn: ({ signal }) => fetchBillPage(q, signal),
    // Keep the old page on screen while the next loads, so paging and filtering do not flash.
    placeholderData: keepPreviousData,
  });
}

/** The spec's section 9 figures, computed by the server over every bill of the lab. */
export function useBillSummary() {
  return useQuery({
    queryKey: billKeys.summary(),
    queryFn: ({ signal }) => call(billsApi.summary, {}, signal).then((r) => r.summary),
  });
}

/** One bill with its lines and payments (the Bill Details dialog). */
export function useBill(id: number | null) {
  return useQuery({
    queryKey: billKeys.detail(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => call(billsApi.get, { params: { id: id ?? 0 } }, signal).then((r) => r.bill),
  });
}

/** CSV of every bill matching the filters (the server streams it with the current filters). */
export function billsExportUrl(f: BillFilters): string {
  return contractUrl(billsApi.export, { query: toApiFilters(f) });
}

export interface PaymentInput {
  /** Rupees; negative for a refund (then reason is required). */
  amount: number;
  method: PaymentMethod;
  reference?: string;
  /** A cheque's bank. */
  bank?: string;
  reason?: string;
}

/** After a change the dialog shows the server's bill at once; lists and figures reload. */
function useBillChanged() {
  const qc = useQueryClient();
  const invalidate = useInvalidateBills();
  return (bill: Bill) => {
    qc.setQueryData(billKeys.detail(bill.id), (old: Bill | undefined) =>
      // PUT answers the bill without lines and payments: keep the ones already loaded.
      old ? { ...old, ...bill, items: bill.items ?? old.items, payments: bill.payments ?? old.payments } : bill,
    );
    return invalidate();
  };
}

/** POST /api/bills/:id/payments: a payment, or (negative amount with a reason) a refund. */
export function useRecordPaymentMutation(billId: number) {
  const changed = useBillChanged();
  return useMutation({
    mutationFn: (p: PaymentInput) => call(billsApi.addPayment, { params: { id: billId }, body: p }).then((r) => r.bill),
    onSuccess: (bill, p) => {
      if (p.amount < 0) notify.success('Refund recorded', `Bill ${bill.bill_number} is now ${bill.payment_status}`);
      else notify.success('Payment recorded', `Bill ${bill.bill_number} is now ${bill.payment_status}`);
      return changed(bill);
    },
    onError: (err, p) => notify.error(p.amount < 0 ? 'Failed to record refund' : 'Failed to record payment', err),
  });
}

/** PUT /api/bills/:id/items: tests added or taken off until the samples are drawn (create_bills). */
export function useEditBillItemsMutation(billId: number) {
  const changed = useBillChanged();
  return useMutation({
    mutationFn: (body: Omit<BillItemsUpdate, 'refund_method'> & { refund_method?: PaymentMethod }) =>
      call(billsApi.updateItems, { params: { id: billId }, body }).then((r) => r.bill),
    onSuccess: (bill) => {
      notify.success(
        'Bill updated',
        `Bill ${bill.bill_number} now comes to ${formatMoney(rupeesToPaise(bill.final_amount))}`,
      );
      return changed(bill);
    },
  });
}

/** PUT /api/bills/:id: payment method, due date, notes (manage_bills). */
export function useUpdateBillMutation(billId: number) {
  const changed = useBillChanged();
  return useMutation({
    mutationFn: (body: BillUpdate) => call(billsApi.update, { params: { id: billId }, body }).then((r) => r.bill),
    onSuccess: (bill) => {
      notify.success('Bill updated', `Bill ${bill.bill_number} has been updated`);
      return changed(bill);
    },
    onError: (err) => notify.error('Failed to update bill', err),
  });
}

/** PUT /api/bills/:id {status: 'cancelled', cancel_reason}: the server refuses while money is held. */
export function useCancelBillMutation(billId: number) {
  const changed = useBillChanged();
  return useMutation({
    mutationFn: (reason: string) =>
      call(billsApi.update, { params: { id: billId }, body: { status: 'cancelled', cancel_reason: reason } }).then(
        (r) => r.bill,
      ),
    onSuccess: (bill) => {
      notify.success('Bill cancelled', `Bill ${bill.bill_number} has been cancelled`);
      return changed(bill);
    },
    onError: (err) => notify.error('Failed to cancel bill', err),
  });
}

/** DELETE /api/bills/:id (admins); refused once the bill has payments. */
export function useDeleteBillMutation() {
  const qc = useQueryClient();
  const invalidate = useInvalidateBills();
  return useMutation({
    mutationFn: (bill: Pick<Bill, 'id' | 'bill_number'>) => call(billsApi.remove, { params: { id: bill.id } }),
    onSuccess: (_res, bill) => {
      notify.success('Bill deleted', `Bill ${bill.bill_number} has been deleted`);
      qc.removeQueries({ queryKey: billKeys.detail(bill.id) });
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete bill', err),
  });
}

/** This month's ledger totals (GET /api/payments summary): the Financial Overview and Payment Methods panels. */
export function useLedgerPeriod(from: string, to: string) {
  return useQuery({
    queryKey: ['payments', 'list', { from, to, limit: 1, for: 'billing-management' }],
    queryFn: ({ signal }) => call(paymentsApi.list, { query: { from, to, limit: 1, page: 1 } }, signal),
  });
}

export function useBillingSettings() {
  return useQuery({
    queryKey: ['billing-settings'],
    queryFn: ({ signal }) => call(billingSettingsApi.get, {}, signal).then((r) => r.settings),
  });
}

export function useUpdateBillingSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingSettingsUpdate) => call(billingSettingsApi.update, { body }).then((r) => r.settings),
    onSuccess: () => {
      notify.success('Billing settings saved', 'New bills and invoices use them');
      return qc.invalidateQueries({ queryKey: ['billing-settings'] });
    },
  });
}

/** A bill's reports for the desk (print_reports): which samples, and which can be handed over now. */
export function useBillReports(billId: number | null) {
  return useQuery({
    queryKey: [...billKeys.detail(billId ?? 0), 'reports'] as const,
    enabled: billId !== null,
    queryFn: ({ signal }) =>
      call(resultsApi.billReports, { params: { id: billId ?? 0 } }, signal).then((r) => r.reports),
  });
}

export const reportPdfUrl = (sampleId: number) => contractUrl(resultsApi.report, { params: { id: sampleId } });
