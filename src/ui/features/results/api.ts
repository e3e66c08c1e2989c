import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CriticalCallInput, ResultUpdate, TestResult } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import type { Sample } from '@shared/schemas/samples';
import type { ResultSheetSave } from '@shared/schemas/result-sheet-save';
import { resultsApi } from '@shared/api/results';
import { samplesApi } from '@shared/api/samples';
import { labReportsApi } from '@shared/api/lab-reports';
import { qcApi } from '@shared/api/qc';
import { ApiError, call, contractUrl } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';

/** List filters as the screens keep them in the URL ("all" means no filter). */
export interface ResultFilters {
  search?: string;
  status?: string;
  validation?: string;
  priority?: string;
  critical?: string;
  /** pending: critical values whose call is not logged yet; logged: those with a call. */
  critical_call?: string;
  /** 'true': entered results only (the validation queue leaves out tests awaiting a result). */
  entered?: string;
  page?: number;
  limit?: number;
}

/** The page sizes the results lists offer. */
export const RESULT_PAGE_SIZES = [20, 50, 100] as const;

export const resultKeys = {
  all: ['results'] as const,
  list: (f: ResultFilters) => ['results', 'list', f] as const,
  summary: ['results', 'summary'] as const,
  sheet: (sampleId: number) => ['results', 'sheet', sampleId] as const,
  quality: ['results', 'quality'] as const,
};

const noAll = (v: string | undefined) => (v && v !== 'all' ? v : undefined);

export function resultQuery(f: ResultFilters) {
  return {
    search: f.search?.trim() || undefined,
    status: noAll(f.status),
    validation: noAll(f.validation),
    priority: noAll(f.priority),
    critical: noAll(f.critical),
    critical_call: noAll(f.critical_call) as 'pending' | 'logged' | undefined,
    entered: f.entered,
    page: f.page,
    limit: f.limit,
  };
}

export function useResults(f: ResultFilters, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: resultKeys.list(f),
    queryFn: () => call(resultsApi.list, { query: resultQuery(f) }),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}

export function useResultSummary() {
  return useQuery({
    queryKey: resultKeys.summary,
    queryFn: () => call(resultsApi.summary, {}).then((r) => r.summary),
  });
}

/** Quality metrics and recent activity of the last 30 days (the figures of Lab Reports' Quality Metrics). */
export function useValidationQuality() {
  return useQuery({
    queryKey: resultKeys.quality,
    queryFn: ({ signal }) => call(labReportsApi.analytics, { query: { days: 30 } }, signal).then((r) => r.analytics),
  });
}

export function useResultSheet(sampleId: number | null) {
  return useQuery({
    queryKey: resultKeys.sheet(sampleId ?? 0),
    queryFn: () => call(resultsApi.sheet, { params: { id: sampleId ?? 0 } }),
    enabled: sampleId !== null,
  });
}

/** A sample typed or scanned into the entry dialog: a barcode (BC...) or a sample ID (SMP...). */
export async function findSample(ref: string): Promise<Sample | null> {
  const code = ref.trim().toUpperCase();
  if (!code) return null;
  if (code.startsWith('BC')) {
    try {
      return (await call(samplesApi.byBarcode, { params: { barcode: code } })).sample;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  }
  const page = await call(samplesApi.list, { query: { search: code, limit: 10 } });
  return page.samples.find((s) => s.sample_id === code) ?? null;
}

export function reportUrl(sampleId: number): string {
  return contractUrl(resultsApi.report, { params: { id: sampleId } });
}

export function exportUrl(f: ResultFilters): string {
  const { page: _p, limit: _l, ...q } = resultQuery(f);
  return contractUrl(resultsApi.export, { query: q });
}

function useInvalidateResults() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: resultKeys.all }),
      // Entering the first result moves a sample to processing; the dashboard counts results.
      qc.invalidateQueries({ queryKey: ['samples'] }),
      qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
    ]);
}

/** Save Results: the whole sheet in one request, stored all or nothing. */
export function useSaveResultSheetMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: ({ sampleId, body }: { sampleId: number; body: ResultSheetSave }) =>
      call(resultsApi.saveSheet, { params: { id: sampleId }, body }).then((r) => r.results),
    onSettled: invalidate,
  });
}

export function useUpdateResultMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ResultUpdate }) =>
      call(resultsApi.update, { params: { id }, body }).then((r) => r.result),
    onSettled: invalidate,
  });
}

export function useDeleteResultMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: (r: TestResult) => call(resultsApi.remove, { params: { id: r.id ?? 0 } }).then(() => r),
    onSuccess: (r) => {
      notify.success('Result deleted successfully', `${r.test_name} on ${r.sample_number}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete result', err),
  });
}

export function useVerifyResultMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: (r: TestResult) => call(resultsApi.verify, { params: { id: r.id ?? 0 } }).then((x) => x.result),
    onSuccess: (r) => {
      notify.success(`Result ${resultCode(r.id)} has been verified`, `${r.test_name} · ${r.first_name} ${r.last_name}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to verify result', err),
  });
}

export function useBulkVerifyMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: (ids: number[]) => call(resultsApi.bulkVerify, { body: { ids } }),
    onSuccess: (out) => {
      if (out.verified > 0)
        notify.success(
          `${out.verified} result${out.verified === 1 ? '' : 's'} verified`,
          out.refused ? `${out.refused} refused; see the reasons` : undefined,
        );
      else notify.error('Failed to verify result', `None of the ${out.refused} selected results could be verified`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to verify result', err),
  });
}

export function useRejectResultMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      call(resultsApi.reject, { params: { id }, body: { reason } }).then((r) => r.result),
    onSuccess: (r) => {
      notify.success(`Result ${resultCode(r.id)} has been rejected`, r.rejection_reason ?? undefined);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to reject result', err),
  });
}

/** Logs the call of a critical value; its report can be released after it. */
export function useCriticalCallMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CriticalCallInput }) =>
      call(resultsApi.criticalCall, { params: { id }, body }).then((x) => x.result),
    onSuccess: () => notify.success('Critical value call logged'),
    onSettled: invalidate,
  });
}

/** One result, fresh after each change (a call logged, a verification), starting from the row the list showed. */
export function useResult(initial: TestResult) {
  return useQuery({
    queryKey: [...resultKeys.all, 'one', initial.id] as const,
    queryFn: () => call(resultsApi.get, { params: { id: initial.id ?? 0 } }).then((x) => x.result),
    initialData: initial,
    staleTime: 0,
  });
}

/** Validate a sample as a unit: the ids of the results the validator was shown. */
export function useVerifySampleMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: ({ sampleId, ids }: { sampleId: number; ids: number[] }) =>
      call(resultsApi.verifySample, { params: { id: sampleId }, body: { ids } }),
    onSettled: invalidate,
    onError: (err) => notify.error('Failed to validate the sample', err),
  });
}

/**
 * A supervisor accepts a rejected QC run that holds results (any run, not only the latest); the
 * QC state shown on results and the QC screen are fetched again.
 */
export function useOverrideQcRunMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, reason }: { runId: number; reason: string }) =>
      call(qcApi.overrideRun, { params: { id: runId }, body: { reason } }),
    onSuccess: () => notify.success('QC rejection overridden', 'Results it held can be validated again'),
    onError: (err) => notify.error('Failed to override the QC run', err),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: resultKeys.all }), qc.invalidateQueries({ queryKey: ['qc'] })]),
  });
}

/** The sample was run again after QC passed and gave the same value: entered anew, so QC judges it by the new run. */
export function useConfirmResultMutation() {
  const invalidate = useInvalidateResults();
  return useMutation({
    mutationFn: (r: TestResult) =>
      call(resultsApi.update, {
        params: { id: r.id ?? 0 },
        body: { result_value: r.result_value ?? '', reentered: true },
      }).then((x) => x.result),
    onSuccess: (r) => notify.success(`Result ${resultCode(r.id)} confirmed`, `${r.test_name} ${r.result_value}`),
    onError: (err) => notify.error('Failed to confirm the result', err),
    onSettled: invalidate,
  });
}
