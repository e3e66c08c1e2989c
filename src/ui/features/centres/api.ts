import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { centresApi } from '@shared/api/centres';
import type {
  CentreCreate,
  CentreReceiptCreate,
  CentreSettings,
  CentreUpdate,
  ShareRuleCreate,
} from '@shared/schemas/centres';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of Collection Centres. Under ['centres']; a payment or bill also moves ['bills'] and ['payers']. */
export const centreKeys = {
  all: ['centres'] as const,
  list: (q: { search: string; status?: string }) => ['centres', 'list', q] as const,
  one: (id: number) => ['centres', 'one', id] as const,
  bills: (id: number) => ['centres', 'bills', id] as const,
  receipts: (id: number) => ['centres', 'receipts', id] as const,
  rules: (id: number) => ['centres', 'rules', id] as const,
  approvals: (id: number) => ['centres', 'approvals', id] as const,
  statement: (id: number, from: string, to: string) => ['centres', 'statement', id, from, to] as const,
  settings: ['centres', 'settings'] as const,
};

function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: centreKeys.all }),
      qc.invalidateQueries({ queryKey: ['payers'] }),
      qc.invalidateQueries({ queryKey: ['bills'] }),
    ]);
}

export function useCentres(q: { search: string; status?: string }) {
  return useQuery({
    queryKey: centreKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        centresApi.list,
        { query: { search: q.search || undefined, status: q.status as 'active' | 'inactive' | undefined } },
        signal,
      ).then((r) => r.centres),
  });
}

export function useCentreBills(id: number | null) {
  return useQuery({
    queryKey: centreKeys.bills(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => call(centresApi.bills, { params: { id: id! } }, signal).then((r) => r.bills),
  });
}

export function useCentreReceipts(id: number | null) {
  return useQuery({
    queryKey: centreKeys.receipts(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => call(centresApi.receipts, { params: { id: id! } }, signal).then((r) => r.receipts),
  });
}

export function useShareRules(id: number | null) {
  return useQuery({
    queryKey: centreKeys.rules(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => call(centresApi.shareRules, { params: { id: id! } }, signal).then((r) => r.rules),
  });
}

export function useCentreStatement(id: number | null, from: string, to: string) {
  return useQuery({
    queryKey: centreKeys.statement(id ?? 0, from, to),
    enabled: id !== null && !!from && !!to && from <= to,
    queryFn: ({ signal }) =>
      call(centresApi.statement, { params: { id: id! }, query: { from, to } }, signal).then((r) => r.statement),
  });
}

export function useCentreSettings() {
  return useQuery({
    queryKey: centreKeys.settings,
    queryFn: ({ signal }) => call(centresApi.settings, {}, signal).then((r) => r.settings),
  });
}

export function useCreateCentreMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: CentreCreate) => call(centresApi.create, { body }).then((r) => r.centre),
    onSuccess: (c) => {
      notify.success('Centre added', c.name);
      return invalidate();
    },
  });
}

export function useUpdateCentreMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (a: { id: number; body: CentreUpdate }) =>
      call(centresApi.update, { params: { id: a.id }, body: a.body }).then((r) => r.centre),
    onSuccess: (c) => {
      notify.success('Centre saved', c.name);
      return invalidate();
    },
  });
}

export function useReceiveCentrePaymentMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (a: { id: number; body: CentreReceiptCreate }) =>
      call(centresApi.receive, { params: { id: a.id }, body: a.body }).then((r) => r.receipt),
    onSuccess: (r) => {
      notify.success(
        'Payment recorded',
        `Settled ${r.allocations.length} bill${r.allocations.length === 1 ? '' : 's'}: ${r.allocations.map((a) => a.bill_number).join(', ')}`,
      );
      return invalidate();
    },
  });
}

export function useAddShareRuleMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (a: { id: number; body: ShareRuleCreate }) =>
      call(centresApi.addShareRule, { params: { id: a.id }, body: a.body }).then((r) => r.rules),
    onSuccess: () => invalidate(),
  });
}

export function useRemoveShareRuleMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (a: { id: number; ruleId: number }) =>
      call(centresApi.removeShareRule, { params: { id: a.id, ruleId: a.ruleId } }).then((r) => r.rules),
    onSuccess: () => invalidate(),
  });
}

export function useCentreSettingsMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: CentreSettings) => call(centresApi.updateSettings, { body }).then((r) => r.settings),
    onSuccess: () => {
      notify.success('Centre setting saved');
      return invalidate();
    },
  });
}

export function useApproveNextBillMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (a: { id: number; reason: string }) =>
      call(centresApi.approve, { params: { id: a.id }, body: { reason: a.reason } }).then((r) => r.approvals),
    onSuccess: () => {
      notify.success('Next bill approved');
      return invalidate();
    },
  });
}

/** Emails the period's statement PDF to the centre now (queued in the lab's outbox). */
export function useSendCentreStatementMutation() {
  return useMutation({
    mutationFn: (a: { id: number; from: string; to: string }) =>
      call(centresApi.sendStatement, { params: { id: a.id }, body: { from: a.from, to: a.to } }).then((r) => r.sent),
    onSuccess: (s) => notify.success('Statement queued', `To ${s.recipient}: it leaves with the lab's next email run.`),
  });
}
