import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { labReportsApi } from '@shared/api/lab-reports';
import type { Department, LabReportStatus, ReportSettingsUpdate, TemplateUpdate } from '@shared/schemas/lab-reports';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

export const labReportKeys = {
  all: ['lab-reports'] as const,
  list: (q: LabReportQuery) => ['lab-reports', 'list', q] as const,
  summary: ['lab-reports', 'summary'] as const,
  analytics: (days: number) => ['lab-reports', 'analytics', days] as const,
  templates: ['lab-reports', 'templates'] as const,
  settings: ['lab-reports', 'settings'] as const,
};

export interface LabReportQuery {
  search: string;
  status: string;
  from: string;
  to: string;
  page: number;
  limit: number;
}

export function useLabReports(q: LabReportQuery, enabled = true) {
  return useQuery({
    queryKey: labReportKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        labReportsApi.list,
        {
          query: {
            search: q.search || undefined,
            status: q.status === 'all' ? undefined : (q.status as LabReportStatus),
            from: q.from || undefined,
            to: q.to || undefined,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Reports with a critical value nobody has telephoned yet (the Critical Values Alert). */
export function useUncalledCriticals() {
  return useQuery({
    queryKey: [...labReportKeys.all, 'uncalled'],
    queryFn: ({ signal }) => call(labReportsApi.list, { query: { critical: 'uncalled', page: 1, limit: 5 } }, signal),
  });
}

export function useLabReportSummary() {
  return useQuery({
    queryKey: labReportKeys.summary,
    queryFn: ({ signal }) => call(labReportsApi.summary, {}, signal).then((r) => r.summary),
  });
}

export function useLabReportAnalytics(days: number) {
  return useQuery({
    queryKey: labReportKeys.analytics(days),
    queryFn: ({ signal }) =>
      call(labReportsApi.analytics, { query: { days: days as 7 | 30 | 90 | 365 } }, signal).then((r) => r.analytics),
    placeholderData: (prev) => prev,
  });
}

export function useReportTemplates() {
  return useQuery({
    queryKey: labReportKeys.templates,
    queryFn: ({ signal }) => call(labReportsApi.templates, {}, signal).then((r) => r.templates),
  });
}

export function useReportSettings() {
  return useQuery({
    queryKey: labReportKeys.settings,
    queryFn: ({ signal }) => call(labReportsApi.settings, {}, signal).then((r) => r.settings),
  });
}

export function useSaveTemplateMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ department, body }: { department: Department; body: TemplateUpdate }) =>
      call(labReportsApi.saveTemplate, { params: { department }, body }).then((r) => r.template),
    onSuccess: (t) => {
      notify.success('Template saved', `The ${t.department} section of every report now uses it.`);
      return qc.invalidateQueries({ queryKey: labReportKeys.templates });
    },
    onError: (err) => notify.error('Failed to save the template', err),
  });
}

export function useUploadSignatureMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ department, file }: { department: Department; file: File }) =>
      call(labReportsApi.uploadSignature, {
        params: { department },
        body: { file_name: file.name, content_base64: await fileToBase64(file) },
      }).then((r) => r.template),
    onSuccess: () => {
      notify.success('Signature uploaded');
      return qc.invalidateQueries({ queryKey: labReportKeys.templates });
    },
    onError: (err) => notify.error('Failed to upload the signature', err),
  });
}

export function useRemoveSignatureMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (department: Department) =>
      call(labReportsApi.removeSignature, { params: { department } }).then((r) => r.template),
    onSuccess: () => {
      notify.success('Signature removed');
      return qc.invalidateQueries({ queryKey: labReportKeys.templates });
    },
    onError: (err) => notify.error('Failed to remove the signature', err),
  });
}

export function useSaveReportSettingsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportSettingsUpdate) => call(labReportsApi.saveSettings, { body }).then((r) => r.settings),
    onSuccess: () => {
      notify.success('Report settings saved');
      return qc.invalidateQueries({ queryKey: labReportKeys.settings });
    },
    onError: (err) => notify.error('Failed to save the report settings', err),
  });
}

export function useReportVerification(token: string) {
  return useQuery({
    queryKey: ['report-verification', token],
    queryFn: ({ signal }) => call(labReportsApi.verify, { query: { token } }, signal).then((r) => r.verification),
    enabled: token !== '',
    retry: false,
  });
}

/** The file as base64 (without the data: prefix). */
function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
