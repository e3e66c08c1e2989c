import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { reportDeliveryApi, reportLinkApi } from '@shared/api/report-delivery';
import type { DeliveryChannelName, DeliverySettingsUpdate } from '@shared/schemas/report-delivery';
import { call, callForFile } from '@/lib/api';
import { notify } from '@/lib/notify';

export const reportDeliveryKeys = {
  all: ['report-delivery'] as const,
  desk: (day: string, only: string) => ['report-delivery', 'desk', day, only] as const,
  link: (token: string) => ['report-link', token] as const,
  settings: ['report-delivery', 'settings'] as const,
};

export function useDeliverySettings() {
  return useQuery({
    queryKey: reportDeliveryKeys.settings,
    queryFn: ({ signal }) => call(reportDeliveryApi.settings, {}, signal).then((r) => r.settings),
  });
}

/** Saves the settings; the caller places a refusal under its fields (no toast of its own for that). */
export function useSaveDeliverySettingsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DeliverySettingsUpdate) =>
      call(reportDeliveryApi.saveSettings, { body }).then((r) => r.settings),
    onSuccess: (saved) => {
      qc.setQueryData(reportDeliveryKeys.settings, saved);
      notify.success('Report delivery settings saved', saved.enabled ? 'Reports go by link.' : 'Report links are off.');
    },
  });
}

/** The link page's first call: what the patient must prove (logged as an open, so asked once). */
export function useLinkOpen(token: string) {
  return useQuery({
    queryKey: reportDeliveryKeys.link(token),
    queryFn: () => call(reportLinkApi.open, { body: { token } }).then((r) => r.link),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useProveMutation() {
  return useMutation({
    mutationFn: (v: { token: string; answer: string }) => call(reportLinkApi.prove, { body: v }).then((r) => r.report),
  });
}

export function useSendCodeMutation() {
  return useMutation({ mutationFn: (token: string) => call(reportLinkApi.sendCode, { body: { token } }) });
}

export function useReportPdfMutation() {
  return useMutation({
    mutationFn: (v: { token: string; answer: string }) => callForFile(reportLinkApi.pdf, { body: v }),
  });
}

export function useDesk(day: string, only: 'all' | 'not_received') {
  return useQuery({
    queryKey: reportDeliveryKeys.desk(day, only),
    queryFn: ({ signal }) => call(reportDeliveryApi.desk, { query: { day: day || undefined, only } }, signal),
  });
}

export function useResendMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { sampleId: number; code: string; channel?: DeliveryChannelName }) =>
      call(reportDeliveryApi.resend, { params: { id: v.sampleId }, body: v.channel ? { channel: v.channel } : {} }),
    onSuccess: (_r, v) => {
      notify.success('Report sent again', `The report of ${v.code} is on its way.`);
      void qc.invalidateQueries({ queryKey: reportDeliveryKeys.all });
    },
    onError: (err) => notify.error('Could not send the report again', err),
  });
}

export function useCopyLinkMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sampleId: number) => call(reportDeliveryApi.copyLink, { params: { id: sampleId } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: reportDeliveryKeys.all }),
    onError: (err) => notify.error('Could not make a link', err),
  });
}

export function useRevokeLinkMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { sampleId: number; code: string }) =>
      call(reportDeliveryApi.revokeLink, { params: { id: v.sampleId } }),
    onSuccess: (_r, v) => {
      notify.success('Link revoked', `Links of ${v.code} handed out so far no longer open.`);
      void qc.invalidateQueries({ queryKey: reportDeliveryKeys.all });
    },
    onError: (err) => notify.error('Could not revoke the link', err),
  });
}
