import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SamplePriority, SampleStatus, SampleType } from '@shared/samples';
import { locationsApi, samplesApi } from '@shared/api/samples';
import { testsApi } from '@shared/api/catalogue';
import { usersApi } from '@shared/api/users';
import type { CallOutput } from '@shared/api/contract';
import { ApiError, call, contractUrl } from '@/lib/api';
import type { Sample } from '@shared/schemas/samples';
import { notify } from '@/lib/notify';
import { formatDateTime, useLabFormat, type LabFormat } from '@/lib/format';
import { shellKeys } from '@/lib/session';

/** GET /api/samples filters; "all" and empty values stay out of the request. */
export interface SampleFilters {
  page: number;
  limit: number;
  search?: string;
  status?: string;
  priority?: string;
  patient_id?: number;
  /** to_report: completed samples whose report has not been printed yet. */
  report?: string;
}

export type SamplePage = CallOutput<typeof samplesApi.list>;

export const sampleKeys = {
  all: ['samples'] as const,
  list: (f: SampleFilters) => ['samples', 'list', f] as const,
  summary: ['samples', 'summary'] as const,
  detail: (id: number) => ['samples', 'detail', id] as const,
  locations: ['samples', 'locations'] as const,
  collectors: ['samples', 'collectors'] as const,
  tests: ['samples', 'orderable-tests'] as const,
};

const real = (v: string | undefined) => (v && v !== 'all' ? v : undefined);

export function useSamples(f: SampleFilters, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sampleKeys.list(f),
    queryFn: ({ signal }) =>
      call(
        samplesApi.list,
        {
          query: {
            page: f.page,
            limit: f.limit,
            search: f.search?.trim(),
            status: real(f.status),
            priority: real(f.priority),
            patient_id: f.patient_id,
            report: f.report === 'to_report' ? 'to_report' : undefined,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}

export function useSampleSummary(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sampleKeys.summary,
    queryFn: ({ signal }) => call(samplesApi.summary, {}, signal).then((r) => r.summary),
    enabled: opts.enabled ?? true,
  });
}

/** One sample with its chain of custody (history) and ordered tests. */
export function useSample(id: number | null) {
  return useQuery({
    queryKey: sampleKeys.detail(id ?? 0),
    queryFn: ({ signal }) => call(samplesApi.get, { params: { id: id ?? 0 } }, signal).then((r) => r.sample),
    enabled: id !== null && id > 0,
  });
}

/** The lab's collection locations (reference data, spec: 15 by default). */
export function useLocations(enabled = true) {
  return useQuery({
    queryKey: sampleKeys.locations,
    queryFn: ({ signal }) => call(locationsApi.list, {}, signal).then((r) => r.locations),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** Collector options: the lab's active users with their role (spec 6: the collector list shows the role). */
export function useCollectors(enabled: boolean) {
  return useQuery({
    queryKey: sampleKeys.collectors,
    queryFn: ({ signal }) => call(usersApi.list, {}, signal).then((r) => r.users),
    staleTime: 60_000,
    enabled,
  });
}

/** Tests that can be ordered on a sample: the active catalogue. */
export function useOrderableTests(enabled: boolean) {
  return useQuery({
    queryKey: sampleKeys.tests,
    queryFn: ({ signal }) => call(testsApi.list, { query: { status: 'active' } }, signal).then((r) => r.tests),
    staleTime: 60_000,
    enabled,
  });
}

export const barcodeImageUrl = (barcode: string, type: 'code128' | 'qrcode') =>
  contractUrl(samplesApi.barcodeImage, { params: { barcode }, query: { type } });

export const labelPdfUrl = (sampleId: number) => contractUrl(samplesApi.label, { params: { id: sampleId } });

/** Invalidates every samples query and the dashboard counts (they include samples). */
function useInvalidateSamples() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: sampleKeys.all }),
      qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
    ]);
}

export interface CollectBody {
  patient_id: number;
  sample_type: SampleType;
  collector_id: number | null;
  location: string | null;
  notes: string | null;
  priority: SamplePriority;
  test_ids: number[];
}

export function useCollectSampleMutation() {
  const invalidate = useInvalidateSamples();
  return useMutation({
    mutationFn: (body: CollectBody) => call(samplesApi.create, { body }).then((r) => r.sample),
    onSuccess: () => {
      notify.success('Sample collected successfully');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to collect sample', err),
  });
}

export interface UpdateBody {
  sample_type: SampleType;
  collector_id: number | null;
  location: string | null;
  notes: string | null;
  priority: SamplePriority;
}

export function useUpdateSampleMutation() {
  const invalidate = useInvalidateSamples();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateBody }) =>
      call(samplesApi.update, { params: { id }, body }).then((r) => r.sample),
    onSuccess: () => {
      notify.success('Sample updated successfully');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update sample', err),
  });
}

export function useSampleStatusMutation() {
  const invalidate = useInvalidateSamples();
  return useMutation({
    mutationFn: ({ id, status, notes }: { id: number; status: SampleStatus; notes?: string }) =>
      call(samplesApi.changeStatus, { params: { id }, body: { status, notes } }).then((r) => r.sample),
    onSuccess: (s) => {
      notify.success(`Sample status updated to ${s.status}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update sample status', err),
  });
}

export function useDeleteSampleMutation() {
  const invalidate = useInvalidateSamples();
  return useMutation({
    mutationFn: (id: number) => call(samplesApi.remove, { params: { id } }),
    onSuccess: () => {
      notify.success('Sample deleted successfully');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete sample', err),
  });
}

/** Generate Missing Barcodes: one server call assigns a barcode to every sample without one. */
export function useGenerateBarcodesMutation() {
  const invalidate = useInvalidateSamples();
  return useMutation({
    mutationFn: () => call(samplesApi.generateBarcodes, {}),
    onSuccess: (r) => {
      if (r.generated === 0) notify.info('No Action Needed', 'All samples already have barcodes');
      else notify.success('Barcodes Generated', `Generated ${r.generated} barcodes for existing samples`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to generate barcodes', err),
  });
}

/** Collects a patient's pending tubes (a bill's order) in one action. */
export function useCollectPendingMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; location?: string | null; collector_id?: number | null }) =>
      call(samplesApi.collect, { body }).then((r) => r.samples),
    onSuccess: (samples) =>
      notify.success(
        `${samples.length} ${samples.length === 1 ? 'tube' : 'tubes'} collected`,
        samples.map((s) => s.sample_id).join(', '),
      ),
    onError: (err) => notify.error('Failed to collect the tubes', err),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: sampleKeys.all }),
        qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
      ]),
  });
}

/** Recollect a rejected sample: the server makes a new pending tube with its own barcode for the same tests. */
export function useRecollectMutation() {
  const invalidate = useInvalidateSamples();
  return useMutation({
    mutationFn: ({ id, notes }: { id: number; notes?: string | null }) =>
      call(samplesApi.recollect, { params: { id }, body: { notes: notes ?? null } }).then((r) => r.sample),
    onSuccess: (s) => {
      notify.success(
        'Recollection ordered',
        `New tube ${s.sample_id} (${s.barcode}) for ${s.first_name} ${s.last_name}`,
      );
      return invalidate();
    },
    onError: (err) => notify.error('Failed to recollect the sample', err),
  });
}

/**
 * A scanned barcode on the collection screen: the sample when it is waiting to be drawn, else why it
 * cannot be collected (already collected, rejected, not a sample of this lab).
 */
export function useScanToCollect(onPending: (sample: Sample) => void) {
  const f = useLabFormat();
  return useMutation({
    mutationFn: (barcode: string) => call(samplesApi.byBarcode, { params: { barcode } }).then((r) => r.sample),
    onSuccess: (s) => {
      const why = notCollectable(s, f);
      if (why) notify.error(`Cannot collect ${s.sample_id}`, why);
      else onPending(s);
    },
    onError: (err, barcode) => {
      if (err instanceof ApiError && err.status === 404)
        notify.error('Barcode Not Found', `No sample of this lab has barcode ${barcode}`);
      else notify.error('Failed to lookup barcode', err);
    },
  });
}

/** Why a scanned sample cannot be collected now, in the collector's words; null when it is pending. */
export function notCollectable(s: Sample, f: LabFormat): string | null {
  if (s.status === 'pending') return null;
  const reason = s.rejection_reason ?? 'no reason given';
  if (s.status === 'rejected')
    return s.recollected_as_code
      ? `It was rejected (${reason}) and recollected as ${s.recollected_as_code}: scan the new tube.`
      : `It was rejected (${reason}). Use Recollect on it to order a new tube.`;
  const when = s.collection_date ? ` on ${formatDateTime(s.collection_date, f)}` : '';
  const by = s.collector_first_name ? ` by ${`${s.collector_first_name} ${s.collector_last_name ?? ''}`.trim()}` : '';
  const state = s.status === 'collected' ? '' : ` and is ${s.status}`;
  return `It was already collected${when}${by}${state}.`;
}
