import { doctorTitledName } from '@shared/person-name';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Doctor, DoctorAnalytics, DoctorCreateInput, DoctorUpdate } from '@shared/schemas/doctors';
import { doctorsApi } from '@shared/api/doctors';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';

/** Query keys of Doctor Management. Under ['doctors'], so a change also refreshes the OP Bill picker's list. */
export const doctorKeys = {
  all: ['doctors'] as const,
  list: (q: DoctorQuery) => ['doctors', 'list', q] as const,
  summary: ['doctors', 'summary'] as const,
  analytics: (from: string, to: string) => ['doctors', 'analytics', from, to] as const,
};

export interface DoctorQuery {
  search: string;
  specialization?: string;
  status?: string;
  page: number;
  limit: number;
}

export function useDoctorPage(q: DoctorQuery) {
  return useQuery({
    queryKey: doctorKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        doctorsApi.list,
        {
          query: {
            search: q.search || undefined,
            specialization: q.specialization,
            status: q.status as Doctor['status'] | undefined,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useDoctorSummary() {
  return useQuery({
    queryKey: doctorKeys.summary,
    queryFn: ({ signal }) => call(doctorsApi.summary, {}, signal).then((r) => r.summary),
  });
}

/** Figures from the bills of a date range; only asked for when the user may see bills. */
export function useDoctorAnalytics(from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: doctorKeys.analytics(from, to),
    queryFn: async ({ signal }): Promise<DoctorAnalytics> => {
      const query = { from: from || undefined, to: to || undefined, limit: 5 };
      return (await call(doctorsApi.analytics, { query }, signal)).analytics;
    },
    enabled,
    // Keep the last period's figures on screen while the next period loads.
    placeholderData: keepPreviousData,
  });
}

function useInvalidateDoctors() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: doctorKeys.all }),
      // Doctors are users: the Users screens, the dashboard's counts and the audit trail change too.
      qc.invalidateQueries({ queryKey: ['users'] }),
      qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
      qc.invalidateQueries({ queryKey: ['audit'] }),
    ]);
}

const nameOf = (d: Pick<Doctor, 'title' | 'first_name' | 'last_name'>) => doctorTitledName(d);

export function useCreateDoctorMutation() {
  const invalidate = useInvalidateDoctors();
  return useMutation({
    mutationFn: (input: DoctorCreateInput) => call(doctorsApi.create, { body: input }).then((r) => r.doctor),
    onSuccess: (d) => {
      notify.success('Doctor added', nameOf(d));
      return invalidate();
    },
    onError: (err) => notify.error('Failed to add doctor', err),
  });
}

export function useUpdateDoctorMutation() {
  const invalidate = useInvalidateDoctors();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: DoctorUpdate }) =>
      call(doctorsApi.update, { params: { id }, body: patch }).then((r) => r.doctor),
    onSuccess: (d) => {
      notify.success('Doctor updated', nameOf(d));
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update doctor', err),
  });
}

/** Deactivate and reactivate: the status alone, through PUT. */
export function useDoctorStatusMutation() {
  const invalidate = useInvalidateDoctors();
  return useMutation({
    mutationFn: ({ doctor, status }: { doctor: Doctor; status: Doctor['status'] }) =>
      call(doctorsApi.update, { params: { id: doctor.id }, body: { status } }).then((r) => r.doctor),
    onSuccess: (d) => {
      notify.success(
        d.status === 'active' ? 'Doctor activated' : 'Doctor deactivated',
        d.status === 'active'
          ? `${nameOf(d)} can be chosen on bills again.`
          : `${nameOf(d)} is no longer offered on bills.`,
      );
      return invalidate();
    },
    onError: (err) => notify.error('Failed to change the doctor’s status', err),
  });
}

export function useDeleteDoctorMutation() {
  const invalidate = useInvalidateDoctors();
  return useMutation({
    mutationFn: (doctor: Doctor) => call(doctorsApi.remove, { params: { id: doctor.id } }).then((r) => r.doctor),
    onSuccess: (d) => {
      notify.success('Doctor deleted', nameOf(d));
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete doctor', err),
  });
}
