import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillListQuery } from '@shared/schemas/bills';
import { paymentsApi, closingsApi } from '@shared/api/payments';
import { revenueApi } from '@shared/api/revenue';
import { billsApi } from '@shared/api/bills';
import type {
  AdvanceUse,
  ClosingCreate,
  LedgerListQuery,
  LedgerPaymentCreate,
  RefundCreate,
} from '@shared/schemas/payments';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { formatMoney } from '@/lib/format';
import { drawerDifferenceText, rupeesToPaise } from '@shared/money';

/** Under ['bills'] too: a payment changes bills' balances. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: (q: Partial<LedgerListQuery>) => ['payments', 'list', q] as const,
  revenue: (from: string, to: string) => ['payments', 'revenue', from, to] as const,
  analytics: (from: string, to: string) => ['payments', 'analytics', from, to] as const,
  closing: (date: string, userId?: number) => ['payments', 'closing', date, userId ?? 0] as const,
  closings: ['payments', 'closings'] as const,
  settings: ['payments', 'closing-settings'] as const,
};

/** The ledger page with its period summary; not asked while the filters are invalid (a backwards range). */
export function usePaymentPage(q: Partial<LedgerListQuery>, enabled = true) {
  return useQuery({
    queryKey: paymentKeys.list(q),
    queryFn: ({ signal }) => call(paymentsApi.list, { query: q }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: paymentKeys.all });
    void qc.invalidateQueries({ queryKey: ['bills'] });
  };
}

export function useRecordPayment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: LedgerPaymentCreate) => call(paymentsApi.create, { body }).then((r) => r.payment),
    onSuccess: (p) => {
      invalidate();
      notify.success('Payment recorded', `${p.payment_number} on bill ${p.bill_number}`);
    },
  });
}

/** The patient's advance on account (for paying a later bill from it). */
export function usePatientAdvance(patientId: number | null) {
  return useQuery({
    queryKey: [...paymentKeys.all, 'advance', patientId],
    queryFn: ({ signal }) => call(paymentsApi.patientAdvance, { params: { id: patientId! } }, signal),
    enabled: patientId !== null,
  });
}

export function useSpendAdvance() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: AdvanceUse) => call(paymentsApi.useAdvance, { body }).then((r) => r.payment),
    onSuccess: (p) => {
      invalidate();
      notify.success('Advance applied', `${p.payment_number} on bill ${p.bill_number}`);
    },
  });
}

export function useRefund() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RefundCreate }) =>
      call(paymentsApi.refund, { params: { id }, body }).then((r) => r.payment),
    onSuccess: (p) => {
      invalidate();
      notify.success('Refund recorded', `${p.payment_number} on bill ${p.bill_number}`);
    },
  });
}

export function useSettleCheque() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, bounce }: { id: number; bounce: string | null }) =>
      (bounce === null
        ? call(paymentsApi.clear, { params: { id } })
        : call(paymentsApi.bounce, { params: { id }, body: { reason: bounce } })
      ).then((r) => r.payment),
    onSuccess: (p) => {
      invalidate();
      notify.success(p.status === 'failed' ? 'Cheque marked bounced' : 'Cheque cleared', `Bill ${p.bill_number}`);
    },
  });
}

/** Advanced Billing's records: the bills list with its filters (status, the method money came by). */
export function useBillRecords(q: Partial<BillListQuery>) {
  return useQuery({
    queryKey: ['bills', 'advanced', q],
    queryFn: ({ signal }) => call(billsApi.list, { query: q }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useBillFigures() {
  return useQuery({
    queryKey: ['bills', 'advanced-summary'],
    queryFn: ({ signal }) => call(billsApi.summary, {}, signal).then((r) => r.summary),
  });
}

/** The ledger's totals for each period (Payment Trends): one summary per period, no rows. */
export function useLedgerPeriods(periods: readonly { from: string; to: string }[]) {
  return useQueries({
    queries: periods.map((p) => ({
      queryKey: paymentKeys.list({ from: p.from, to: p.to, limit: 1 }),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        call(paymentsApi.list, { query: { from: p.from, to: p.to, limit: 1 } }, signal),
    })),
  });
}

/** The open bill with this exact number, for the Record Payment dialog. */
export async function findBillByNumber(billNumber: string) {
  const page = await call(billsApi.list, { query: { search: billNumber, limit: 5 } });
  return page.bills.find((b) => b.bill_number.toLowerCase() === billNumber.trim().toLowerCase()) ?? null;
}

export function useRevenueDaily(from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: paymentKeys.revenue(from, to),
    queryFn: ({ signal }) => call(revenueApi.daily, { query: { from, to } }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRevenueAnalytics(from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: paymentKeys.analytics(from, to),
    queryFn: ({ signal }) => call(revenueApi.analytics, { query: { from, to } }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useClosing(date: string, userId?: number) {
  return useQuery({
    queryKey: paymentKeys.closing(date, userId),
    queryFn: ({ signal }) => call(closingsApi.get, { query: { date, user_id: userId } }, signal).then((r) => r.closing),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
  });
}

export function useClosingHistory() {
  return useQuery({
    queryKey: paymentKeys.closings,
    queryFn: ({ signal }) => call(closingsApi.history, { query: {} }, signal).then((r) => r.closings),
  });
}

export function useClosingSettings() {
  return useQuery({
    queryKey: paymentKeys.settings,
    queryFn: ({ signal }) => call(closingsApi.settings, {}, signal).then((r) => r.settings),
  });
}

export function useCloseDay() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ClosingCreate) => call(closingsApi.close, { body }).then((r) => r.closing),
    onSuccess: (c) => {
      void qc.invalidateQueries({ queryKey: paymentKeys.all });
      notify.success(
        'Day closed',
        `${c.user_name}: the drawer is ${drawerDifferenceText(rupeesToPaise(c.difference ?? 0), formatMoney)}`,
      );
    },
  });
}

export function useUpdateClosingSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: 'refuse' | 'next_day') =>
      call(closingsApi.updateSettings, { body: { closed_day_payments: v } }).then((r) => r.settings),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: paymentKeys.settings });
      notify.success('Setting saved');
    },
  });
}
