import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VisitCreate, VisitUpdate } from '@shared/schemas/history';
import { historyApi } from '@shared/api/history';
import { portalPinApi } from '@shared/api/portal';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { formatDate, useLabFormat } from '@/lib/format';

/** Query keys of Patient History: one history per patient, and its portal PIN status. */
export const historyKeys = {
  all: ['history'] as const,
  patient: (id: number) => ['history', 'patient', id] as const,
  portalPin: (id: number) => ['history', 'portal-pin', id] as const,
};

/** GET /api/patients/{id}/history: the patient, their visits, results, samples, bills and totals. */
export function usePatientHistory(patientId: number | null) {
  return useQuery({
    queryKey: historyKeys.patient(patientId ?? 0),
    queryFn: ({ signal }) => call(historyApi.history, { params: { id: patientId } }, signal),
    enabled: patientId !== null,
  });
}

/** GET /api/patients/{id}/portal-pin: whether a PIN is issued (never the PIN). */
export function usePortalPinStatus(patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.portalPin(patientId),
    queryFn: ({ signal }) => call(portalPinApi.status, { params: { id: patientId } }, signal),
    enabled,
  });
}

/** POST /api/patients/{id}/portal-pin: issues (or resets) the PIN; the answer holds it this once. */
export function useIssuePortalPinMutation(patientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(portalPinApi.issue, { params: { id: patientId } }),
    onSuccess: (issued) => {
      notify.success(
        issued.reset ? 'Portal PIN reset' : 'Portal PIN issued',
        'Give the PIN to the patient now: it is shown only once.',
      );
      return qc.invalidateQueries({ queryKey: historyKeys.portalPin(patientId) });
    },
    onError: (err) => notify.error('Failed to issue portal PIN', err),
  });
}

export function useScheduleVisitMutation(patientId: number) {
  const qc = useQueryClient();
  const labFormat = useLabFormat();
  return useMutation({
    mutationFn: (body: VisitCreate) =>
      call(historyApi.scheduleVisit, { params: { id: patientId }, body }).then((r) => r.visit),
    onSuccess: (visit) => {
      notify.success(
        'Appointment booked',
        `${formatDate(visit.visit_date, labFormat)}${visit.visit_time ? ` ${visit.visit_time}` : ''} with ${visit.doctor_name ?? 'the doctor'}`,
      );
      return qc.invalidateQueries({ queryKey: historyKeys.patient(patientId) });
    },
    onError: (err) => notify.error('Failed to book appointment', err),
  });
}

export function useUpdateVisitMutation(patientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: VisitUpdate }) =>
      call(historyApi.updateVisit, { params: { id }, body }).then((r) => r.visit),
    onSuccess: () => {
      notify.success('Visit updated successfully');
      return qc.invalidateQueries({ queryKey: historyKeys.patient(patientId) });
    },
    onError: (err) => notify.error('Failed to update visit', err),
  });
}
