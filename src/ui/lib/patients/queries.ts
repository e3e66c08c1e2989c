import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Patient, PatientCreate, PatientPage, PatientUpdate } from '@shared/schemas/patients';
import { call } from '@/lib/api';
import { patientsApi } from '@shared/api/patients';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';
import { possibleDuplicates } from './duplicates';

/** What the list and search screens ask the server for (GET /api/patients, /api/patients/search). */
export interface PatientQuery {
  page: number;
  limit: number;
  search?: string;
  /** Male, Female, Other; "all" or empty leaves it out. */
  gender?: string;
  /** none, basic, premium, corporate; "all" or empty leaves it out. */
  membership?: string;
}

export const patientKeys = {
  all: ['patients'] as const,
  lists: () => ['patients', 'list'] as const,
  list: (q: PatientQuery) => ['patients', 'list', q] as const,
  searches: () => ['patients', 'search'] as const,
  search: (q: PatientQuery) => ['patients', 'search', q] as const,
  detail: (id: number) => ['patients', 'detail', id] as const,
};

/** Drops "all" and empty filters so the URL and the cache key only carry real filters. */
export function toApiQuery(q: PatientQuery): Record<string, string | number> {
  const out: Record<string, string | number> = { page: q.page, limit: q.limit };
  if (q.search?.trim()) out.search = q.search.trim();
  if (q.gender && q.gender !== 'all') out.gender = q.gender;
  if (q.membership && q.membership !== 'all') out.membership = q.membership;
  return out;
}

export function fetchPatientPage(q: PatientQuery, signal?: AbortSignal): Promise<PatientPage> {
  return call(patientsApi.list, { query: toApiQuery(q) }, signal);
}

export function usePatients(q: PatientQuery) {
  return useQuery({
    queryKey: patientKeys.list(q),
    queryFn: ({ signal }) => fetchPatientPage(q, signal),
    // Keep the old page on screen while the next one loads, so paging does not flash a skeleton.
    placeholderData: keepPreviousData,
  });
}

/** The spec's search call (GET /patients/search?search&gender); same envelope as the list. */
export function useSearchPatients(q: PatientQuery, enabled = true) {
  return useQuery({
    queryKey: patientKeys.search(q),
    enabled,
    queryFn: ({ signal }) => call(patientsApi.search, { query: toApiQuery(q) }, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePatient(id: number | null, initial?: Patient) {
  return useQuery({
    queryKey: patientKeys.detail(id ?? 0),
    queryFn: ({ signal }) => call(patientsApi.get, { params: { id: id ?? 0 } }, signal).then((r) => r.patient),
    enabled: id !== null,
    // The row the user clicked is shown at once; the fresh record replaces it when it arrives.
    placeholderData: initial,
  });
}

function invalidateAfterWrite(qc: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: patientKeys.all }),
    qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
  ]);
}

export interface CreateOptions {
  /** Toast title on success; the spec has "New patient created successfully" (All Patients) and others. */
  successTitle?: string;
  /** Toast title on failure; the spec has "Failed to create patient" and "Failed to register patient. Please try again.". */
  failureTitle?: string;
}

export function useCreatePatientMutation(opts: CreateOptions = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PatientCreate) => call(patientsApi.create, { body }).then((r) => r.patient),
    onSuccess: (patient) => {
      notify.success(
        opts.successTitle ?? 'Patient created successfully',
        `${patient.first_name} ${patient.last_name} (${patient.patient_id})`,
      );
      return invalidateAfterWrite(qc);
    },
    // A likely duplicate is not a failure: the form shows the candidates instead.
    onError: (err) => {
      if (!possibleDuplicates(err)) notify.error(opts.failureTitle ?? 'Failed to create patient', err);
    },
  });
}

export function useUpdatePatientMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PatientUpdate }) =>
      call(patientsApi.update, { params: { id }, body }).then((r) => r.patient),
    onSuccess: (patient) => {
      notify.success(
        'Patient updated successfully',
        `${patient.first_name} ${patient.last_name} (${patient.patient_id})`,
      );
      qc.setQueryData(patientKeys.detail(patient.id), patient);
      return qc.invalidateQueries({ queryKey: patientKeys.all });
    },
    onError: (err) => notify.error('Failed to update patient', err),
  });
}

export function useDeletePatientMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patient: Patient) => call(patientsApi.remove, { params: { id: patient.id } }).then((r) => r.patient),
    onSuccess: (patient) => {
      notify.success(
        'Patient deleted successfully',
        `${patient.first_name} ${patient.last_name} (${patient.patient_id})`,
      );
      qc.removeQueries({ queryKey: patientKeys.detail(patient.id) });
      return invalidateAfterWrite(qc);
    },
    onError: (err) => notify.error('Failed to delete patient', err),
  });
}

/** POST /api/patients/{id}/merge: the duplicate's records move to the patient kept; its code becomes an alias. */
export function useMergePatientMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ merged, kept }: { merged: Patient; kept: Patient }) =>
      call(patientsApi.merge, { params: { id: merged.id }, body: { into: kept.id } }),
    onSuccess: (r, { merged }) => {
      notify.success(
        'Patients merged',
        `${merged.patient_id} is now part of ${r.patient.first_name} ${r.patient.last_name} (${r.patient.patient_id})`,
      );
      qc.removeQueries({ queryKey: patientKeys.detail(merged.id) });
      // Bills, samples and results now name the kept patient: every list that shows a patient may change.
      return qc.invalidateQueries();
    },
    onError: (err) => notify.error('Failed to merge patients', err),
  });
}
