import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { reportsApi } from '@shared/api/reports';
import type { CustomReportCreate, ReportCatalogueQuery, ReportPage, ReportPeriodQuery } from '@shared/schemas/reports';
import { call, contractUrl } from '@/lib/api';
import { notify } from '@/lib/notify';

export const reportKeys = {
  all: ['reports'] as const,
  catalogue: (q: Partial<ReportCatalogueQuery>) => ['reports', 'catalogue', q] as const,
  run: (id: string, q: ReportPeriodQuery, page: ReportPage | null) => ['reports', 'run', id, q, page] as const,
  monthly: (month: string) => ['reports', 'monthly', month] as const,
};

export function useReportCatalogue(q: Partial<ReportCatalogueQuery>, enabled = true) {
  return useQuery({
    queryKey: reportKeys.catalogue(q),
    queryFn: ({ signal }) => call(reportsApi.catalogue, { query: q }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * Runs a report, one page of its rows at a time (the totals and chart are the whole period's). The
 * first page is a run the server records, so the catalogue's counts are refreshed after it.
 */
export function useReport(id: string | null, q: ReportPeriodQuery, page: ReportPage, enabled = true) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: reportKeys.run(id ?? '', q, page),
    queryFn: async ({ signal }) => {
      const r = await call(reportsApi.run, { params: { id: id! }, query: { ...q, ...page, format: 'json' } }, signal);
      if (page.page === 1) void qc.invalidateQueries({ queryKey: ['reports', 'catalogue'] });
      return r.report;
    },
    enabled: enabled && !!id,
    staleTime: 60_000,
    // While the next page loads, the current one stays (the same report and period only).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === id && JSON.stringify(previousQuery.queryKey[3]) === JSON.stringify(q)
        ? previous
        : undefined,
  });
}

export const reportFileUrl = (id: string, q: ReportPeriodQuery, format: 'csv' | 'xlsx' | 'pdf') =>
  contractUrl(reportsApi.run, { params: { id }, query: { ...q, format } });

export function useMonthly(month: string, enabled = true) {
  return useQuery({
    queryKey: reportKeys.monthly(month),
    queryFn: ({ signal }) =>
      call(reportsApi.monthly, { query: { month, format: 'json' } }, signal).then((r) => r.monthly),
    enabled,
    staleTime: 60_000,
  });
}

export const monthlyPdfUrl = (month: string) => contractUrl(reportsApi.monthly, { query: { month, format: 'pdf' } });

export function useCreateCustomReport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomReportCreate) => call(reportsApi.createCustom, { body }).then((r) => r.report),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: reportKeys.all });
      notify.success('Report saved', `${r.name} is in the catalogue`);
    },
  });
}

export function useDeleteCustomReport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(reportsApi.removeCustom, { params: { id } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: reportKeys.all });
      notify.success('Report deleted');
    },
  });
}
