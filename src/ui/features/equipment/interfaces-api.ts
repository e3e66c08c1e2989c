import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { connectionsApi } from '@shared/api/connections';
import type { ConnectionCreate, ConnectionUpdate, UnmatchedAssign } from '@shared/schemas/connections';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of the machines' connections, message log and Unmatched queue. */
export const interfaceKeys = {
  all: ['interfaces'] as const,
  connections: ['interfaces', 'connections'] as const,
  messages: (q: object) => ['interfaces', 'messages', q] as const,
  message: (id: number) => ['interfaces', 'message', id] as const,
  unmatched: (q: object) => ['interfaces', 'unmatched', q] as const,
};

export function useConnections(enabled: boolean) {
  return useQuery({
    queryKey: interfaceKeys.connections,
    queryFn: () => call(connectionsApi.list, {}).then((r) => r.connections),
    enabled,
    // The listener writes its status (listening, a port in use) as it goes: within seconds of a
    // connection being enabled, so while one is still starting the list looks again each second.
    refetchInterval: (q) => (q.state.data?.some((c) => c.enabled && c.listen_status === 'stopped') ? 1_000 : 10_000),
  });
}

export function useMessages(q: { page: number; limit: number }, enabled: boolean) {
  return useQuery({
    queryKey: interfaceKeys.messages(q),
    queryFn: () => call(connectionsApi.messages, { query: q }),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: 15_000,
  });
}

export function useMessage(id: number | null) {
  return useQuery({
    queryKey: interfaceKeys.message(id ?? 0),
    queryFn: () => call(connectionsApi.message, { params: { id: id! } }).then((r) => r.message),
    enabled: id !== null,
  });
}

export function useUnmatched(q: { page: number; limit: number }, enabled: boolean) {
  return useQuery({
    queryKey: interfaceKeys.unmatched(q),
    queryFn: () => call(connectionsApi.unmatched, { query: { ...q, status: 'open' } }),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: 15_000,
  });
}

function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: interfaceKeys.all });
}

export function useSaveConnection() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (v: { id: number | null; body: ConnectionCreate | ConnectionUpdate }) =>
      v.id === null
        ? call(connectionsApi.create, { body: v.body as ConnectionCreate })
        : call(connectionsApi.update, { params: { id: v.id }, body: v.body }),
    onSuccess: (r) => {
      notify.success('Connection saved', r.connection.name);
      void refresh();
    },
  });
}

export function useConnectionAction() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (v: { id: number; action: 'enable' | 'disable' | 'remove' }) =>
      call(connectionsApi[v.action], { params: { id: v.id } }),
    onSuccess: (r, v) => {
      notify.success(
        v.action === 'remove'
          ? 'Connection deleted'
          : v.action === 'enable'
            ? 'Connection enabled'
            : 'Connection disabled',
        r.connection.name,
      );
      void refresh();
    },
    onError: (err) => notify.error('The connection could not be changed', err),
  });
}

/** What a capture would become on a connection (nothing is stored, so nothing to refresh). */
export function useReplayCapture() {
  return useMutation({
    mutationFn: (v: { id: number; capture: string }) =>
      call(connectionsApi.replay, { params: { id: v.id }, body: { capture: v.capture } }).then((r) => r.replay),
  });
}

export function useAssignUnmatched() {
  const refresh = useRefresh();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; body: UnmatchedAssign }) =>
      call(connectionsApi.assign, { params: { id: v.id }, body: v.body }),
    onSuccess: (r) => {
      notify.success('Result entered', `${r.result.test_name}: ${r.result.result_value ?? ''} (awaiting verification)`);
      void refresh();
      void qc.invalidateQueries({ queryKey: ['results'] });
    },
  });
}

export function useDiscardUnmatched() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (v: { id: number; reason: string }) =>
      call(connectionsApi.discard, { params: { id: v.id }, body: { reason: v.reason } }),
    onSuccess: () => {
      notify.success('Unmatched result discarded');
      void refresh();
    },
  });
}
