import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { centrePortalApi } from '@shared/api/centre-portal';
import type { PortalOrder } from '@shared/schemas/centre-portal';
import type { PatientCreate } from '@shared/schemas/patients';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of the centre portal: all under ['centre-portal'], a centre login's own rows only. */
export const portalKeys = {
  all: ['centre-portal'] as const,
  centre: ['centre-portal', 'centre'] as const,
  patients: (search: string) => ['centre-portal', 'patients', search] as const,
  tests: (search: string) => ['centre-portal', 'tests', search] as const,
  bills: ['centre-portal', 'bills'] as const,
  bill: (id: number) => ['centre-portal', 'bill', id] as const,
  statement: (from: string, to: string) => ['centre-portal', 'statement', from, to] as const,
};

export function usePortalCentre() {
  return useQuery({
    queryKey: portalKeys.centre,
    queryFn: ({ signal }) => call(centrePortalApi.centre, {}, signal).then((r) => r.centre),
  });
}

export function usePortalPatients(search: string) {
  return useQuery({
    queryKey: portalKeys.patients(search),
    queryFn: ({ signal }) =>
      call(centrePortalApi.patients, { query: { search: search || undefined } }, signal).then((r) => r.patients),
  });
}

export function usePortalTests(search: string) {
  return useQuery({
    queryKey: portalKeys.tests(search),
    queryFn: ({ signal }) =>
      call(centrePortalApi.tests, { query: { search: search || undefined } }, signal).then((r) => r.tests),
  });
}

export function usePortalBills() {
  return useQuery({
    queryKey: portalKeys.bills,
    queryFn: ({ signal }) => call(centrePortalApi.bills, {}, signal).then((r) => r.bills),
  });
}

export function usePortalBill(id: number | null) {
  return useQuery({
    queryKey: portalKeys.bill(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => call(centrePortalApi.bill, { params: { id: id! } }, signal),
  });
}

export function usePortalStatement(from: string, to: string) {
  return useQuery({
    queryKey: portalKeys.statement(from, to),
    enabled: !!from && !!to && from <= to,
    queryFn: ({ signal }) => call(centrePortalApi.statement, { query: { from, to } }, signal).then((r) => r.statement),
  });
}

export function useRegisterPortalPatientMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PatientCreate) => call(centrePortalApi.registerPatient, { body }).then((r) => r.patient),
    onSuccess: (p) => {
      notify.success('Patient registered', `${p.name} (${p.patient_code})`);
      return qc.invalidateQueries({ queryKey: portalKeys.all });
    },
  });
}

export function usePortalOrderMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PortalOrder) => call(centrePortalApi.order, { body }).then((r) => r.bill),
    onSuccess: (b) => {
      notify.success('Tests ordered', `Bill ${b.bill_number} for ${b.patient_name}`);
      return qc.invalidateQueries({ queryKey: portalKeys.all });
    },
  });
}
