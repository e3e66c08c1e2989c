import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataJobsApi, dataMappingsApi } from '@shared/api/data-jobs';
import type {
  DataJob,
  DataJobStatus,
  DataJobSummary,
  DataJobType,
  DataMappingInput,
  ExportStartBody,
  ImportStartBody,
} from '@shared/schemas/data-jobs';
import { call, contractUrl, uploadFile } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of the data screens: all under ['data-jobs'], so a finished job refreshes every list and card. */
export const dataKeys = {
  all: ['data-jobs'] as const,
  list: (q: JobQuery) => ['data-jobs', 'list', q] as const,
  summary: (scope: Scope) => ['data-jobs', 'summary', scope] as const,
  job: (id: number) => ['data-jobs', 'job', id] as const,
  entities: ['data-jobs', 'entities'] as const,
  errors: (id: number) => ['data-jobs', 'errors', id] as const,
  mappings: (entity: string) => ['data-jobs', 'mappings', entity] as const,
};

/** Which jobs a screen shows: its type and its entities (Test Data Import: the test menu). */
export interface Scope {
  type?: DataJobType;
  entities?: readonly string[];
}

export interface JobQuery {
  search: string;
  type?: string;
  status?: string;
  entity?: string;
  page: number;
  limit: number;
}

export function useJobPage(q: JobQuery) {
  return useQuery({
    queryKey: dataKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        dataJobsApi.list,
        {
          query: {
            search: q.search || undefined,
            type: q.type as DataJobType | undefined,
            status: q.status as DataJobStatus | undefined,
            entity: q.entity as never,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    // A running job's row moves on while the screen is open.
    refetchInterval: (query) =>
      query.state.data?.jobs.some((j) => j.status === 'in_progress' || j.status === 'pending') ? 2000 : false,
  });
}

export function useJobSummary(scope: Scope) {
  return useQuery<DataJobSummary>({
    queryKey: dataKeys.summary(scope),
    queryFn: ({ signal }) =>
      call(
        dataJobsApi.summary,
        { query: { type: scope.type, entity: scope.entities?.join(',') as never } },
        signal,
      ).then((r) => r.summary),
    placeholderData: keepPreviousData,
  });
}

export function useTransferEntities() {
  return useQuery({
    queryKey: dataKeys.entities,
    queryFn: ({ signal }) => call(dataJobsApi.entities, {}, signal).then((r) => r.entities),
    staleTime: 60_000,
  });
}

/** One job, polled every second while it runs (its live progress). */
export function useJob(id: number | null) {
  return useQuery({
    queryKey: dataKeys.job(id ?? 0),
    queryFn: ({ signal }) => call(dataJobsApi.get, { params: { id: id! } }, signal).then((r) => r.job),
    enabled: id !== null,
    refetchInterval: (query) => {
      const s = query.state.data?.status;
      return s === 'in_progress' || s === 'pending' ? 1000 : false;
    },
  });
}

export function useJobErrors(id: number | null) {
  return useQuery({
    queryKey: dataKeys.errors(id ?? 0),
    queryFn: ({ signal }) => call(dataJobsApi.errors, { params: { id: id! } }, signal),
    enabled: id !== null,
  });
}

export function useMappings(entity: string) {
  return useQuery({
    queryKey: dataKeys.mappings(entity),
    queryFn: ({ signal }) =>
      call(dataMappingsApi.list, { query: { entity: entity as never } }, signal).then((r) => r.mappings),
    enabled: entity !== '',
  });
}

export function useInvalidateJobs() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: dataKeys.all });
}

export function uploadForCheck(entity: string, file: File, update: boolean) {
  return uploadFile(
    dataJobsApi.upload,
    { query: { entity: entity as never, file_name: file.name, update: update ? '1' : undefined } },
    file,
  );
}

/** Removes an upload the user gave up; failing is harmless (the server removes it within the hour). */
export function discardUpload(id: string): void {
  void call(dataJobsApi.discardUpload, { params: { id } }).catch(() => undefined);
}

export function useRecheck() {
  return useMutation({
    mutationFn: (body: { upload_id: string; entity: string; mapping?: Record<string, string | null>; update?: boolean }) =>
      call(dataJobsApi.check, { body: body as never }).then((r) => r.check),
    onError: (err) => notify.error('Validation failed', err),
  });
}

export function useStartImport() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: (body: ImportStartBody) => call(dataJobsApi.startImport, { body }).then((r) => r.job),
    onSuccess: () => invalidate(),
    onError: (err) => notify.error('Import could not start', err),
  });
}

export function useStartExport() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: (body: ExportStartBody) => call(dataJobsApi.startExport, { body }).then((r) => r.job),
    onSuccess: () => invalidate(),
    onError: (err) => notify.error('Export could not start', err),
  });
}

export function useCancelJob() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: (job: DataJob) => call(dataJobsApi.cancel, { params: { id: job.id } }).then((r) => r.job),
    onSuccess: (job) => {
      notify.success('Job cancelled', `${job.name}: nothing of it was stored.`);
      return invalidate();
    },
    onError: (err) => notify.error('Could not cancel the job', err),
  });
}

export function useSaveMapping() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: DataMappingInput) => call(dataMappingsApi.save, { body: input }).then((r) => r.mapping),
    onSuccess: (m) => {
      notify.success('Mapping saved', `"${m.name}" can be chosen for the next ${m.entity} file.`);
      return qc.invalidateQueries({ queryKey: dataKeys.mappings(m.entity) });
    },
    onError: (err) => notify.error('Could not save the mapping', err),
  });
}

export function useDeleteMapping() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(dataMappingsApi.remove, { params: { id } }).then((r) => r.mapping),
    onSuccess: (m) => {
      notify.success('Mapping deleted', m.name);
      return qc.invalidateQueries({ queryKey: dataKeys.mappings(m.entity) });
    },
    onError: (err) => notify.error('Could not delete the mapping', err),
  });
}

export const downloadUrl = (id: number) => contractUrl(dataJobsApi.download, { params: { id } });
export const errorReportUrl = (id: number) => contractUrl(dataJobsApi.errorReport, { params: { id } });
export const templateUrl = (entity: string, format: 'csv' | 'xlsx' | 'json') =>
  contractUrl(dataJobsApi.template, { params: { entity: entity as never }, query: { format } });

/** Starts a browser download of a URL of this server (the session cookie goes with it). */
export function downloadFrom(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
