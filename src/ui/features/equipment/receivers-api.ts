import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { interopOutApi } from '@shared/api/interop-out';
import { payersApi } from '@shared/api/payers';
import type { DeliveryStatus, ReceiverCreate, ReceiverUpdate } from '@shared/schemas/interop-out';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of the report receivers and their delivery log ("Out"). */
export const receiverKeys = {
  all: ['receivers'] as const,
  list: ['receivers', 'list'] as const,
  deliveries: (q: object) => ['receivers', 'deliveries', q] as const,
};

export function useReceivers() {
  return useQuery({
    queryKey: receiverKeys.list,
    queryFn: () => call(interopOutApi.receivers, {}).then((r) => r.receivers),
    // Deliveries are sent every few seconds by the server; the counts follow.
    refetchInterval: 15_000,
  });
}

export function useDeliveries(q: { page: number; limit: number; status: DeliveryStatus | '' }) {
  return useQuery({
    queryKey: receiverKeys.deliveries(q),
    queryFn: () =>
      call(interopOutApi.deliveries, { query: { page: q.page, limit: q.limit, status: q.status || undefined } }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

/** Active payers to restrict a receiver to (a referring hospital, a corporate client). */
export function usePayerChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['receivers', 'payers'],
    queryFn: () => call(payersApi.list, { query: { status: 'active', limit: 200 } }).then((r) => r.payers),
    enabled,
  });
}

function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: receiverKeys.all });
}

export function useSaveReceiver() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (v: { id: number | null; body: ReceiverCreate | ReceiverUpdate }) =>
      v.id === null
        ? call(interopOutApi.createReceiver, { body: v.body as ReceiverCreate })
        : call(interopOutApi.updateReceiver, { params: { id: v.id }, body: v.body }),
    onSuccess: (r) => {
      notify.success('Receiver saved', r.receiver.name);
      void refresh();
    },
  });
}

export function useRemoveReceiver() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => call(interopOutApi.removeReceiver, { params: { id } }),
    onSuccess: (r) => {
      notify.success('Receiver deleted', r.receiver.name);
      void refresh();
    },
    onError: (err) => notify.error('The receiver could not be deleted', err),
  });
}

export function useRetryDelivery() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => call(interopOutApi.retryDelivery, { params: { id } }),
    onSuccess: (r) => {
      notify.success('Delivery queued again', `${r.delivery.sample_code} to ${r.delivery.receiver_name}`);
      void refresh();
    },
    onError: (err) => notify.error('The delivery could not be queued again', err),
  });
}
