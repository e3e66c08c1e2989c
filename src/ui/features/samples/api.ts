import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CatalogueTest } from '@shared/schemas/catalogue';
import type { User } from '@shared/schemas/users';
import type { CollectionLocation, Sample, SampleSummary } from '@shared/schemas/samples';
import type { SamplePriority, SampleStatus, SampleType } from '@shared/samples';
import type { Paged } from '@shared/schemas/common';
import { api } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';

/** GET /api/samples filters; "all" and empty values stay out of the request. */
export interface SampleFilters {
  page: number;
  limit: number;
  search?: string;
  status?: string;
  priority?: string;
}

export interface SamplePage extends Paged {
  samples: Sample[];
}

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
      api.get<SamplePage>(
        '/api/samples',
        { page: f.page, limit: f.limit, search: f.search?.trim(), status: real(f.status), priority: real(f.priority) },
        signal,
      ),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}

export function useSampleSummary(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sampleKeys.summary,
    queryFn: ({ signal }) =>
      api.get<{ summary: SampleSummary }>('/api/samples/summary', undefined, signal).then((r) => r.summary),
    enabled: opts.enabled ?? true,
  });
}

/** One sample with its chain of custody (history) and ordered tests. */
export function useSample(id: number | null) {
  return useQuery({
    queryKey: sampleKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<{ sample: Sample }>(`/api/samples/${id}`, undefined, signal).then((r) => r.sample),
    enabled: id !== null && id > 0,
  });
}

/** The lab's collection locations (reference data, spec: 15 by default). */
export function useLocations(enabled = true) {
  return useQuery({
    queryKey: sampleKeys.locations,
    queryFn: ({ signal }) =>
      api
        .get<{ locations: CollectionLocation[] }>('/api/collection-locations', undefined, signal)
        .then((r) => r.locations),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** Collector options: the lab's active users with their role (spec 6: the collector list shows the role). */
export function useCollectors(enabled: boolean) {
  return useQuery({
    queryKey: sampleKeys.collectors,
    queryFn: ({ signal }) => api.get<{ users: User[] }>('/api/users', undefined, signal).then((r) => r.users),
    staleTime: 60_000,
    enabled,
  });
}

/** Tests that can be ordered on a sample: the active catalogue. */
export function useOrderableTests(enabled: boolean) {
  return useQuery({
    queryKey: sampleKeys.tests,
    queryFn: ({ signal }) =>
      api.get<{ tests: CatalogueTest[] }>('/api/tests', { status: 'active' }, signal).then((r) => r.tests),
    staleTime: 60_000,
    enabled,
  });
}

export const barcodeImageUrl = (barcode: string, type: 'code128' | 'qrcode') =>
  `/api/barcodes/${encodeURIComponent(barcode)}.png?type=${type}`;

export const labelPdfUrl = (sampleId: number) => `/api/samples/${sampleId}/label.pdf`;

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
    mutationFn: (body: CollectBody) => api.post<{ sample: Sample }>('/api/samples', body).then((r) => r.sample),
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
      api.put<{ sample: Sample }>(`/api/samples/${id}`, body).then((r) => r.sample),
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
      api.put<{ sample: Sample }>(`/api/samples/${id}/status`, { status, notes }).then((r) => r.sample),
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
    mutationFn: (id: number) => api.delete<{ sample: Sample }>(`/api/samples/${id}`),
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
    mutationFn: () => api.post<{ generated: number; samples: string[] }>('/api/samples/generate-barcodes', {}),
    onSuccess: (r) => {
      if (r.generated === 0) notify.info('No Action Needed', 'All samples already have barcodes');
      else notify.success('Barcodes Generated', `Generated ${r.generated} barcodes for existing samples`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to generate barcodes', err),
  });
}
