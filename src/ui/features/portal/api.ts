import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PortalLogin, PortalPatient } from '@shared/schemas/portal';
import { portalApi } from '@shared/api/portal';
import type { CallInput, CallOutput, RouteContract } from '@shared/api/contract';
import { ApiError, call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { queryClient } from '@/lib/queryClient';

/**
 * The patient portal talks only to /api/portal/*, with its own cookie (lims_portal); it never reads or
 * needs the staff session. Everything is keyed under ['portal'] so logout can drop it all at once.
 */
export const portalKeys = {
  all: ['portal'] as const,
  me: ['portal', 'me'] as const,
  appointments: ['portal', 'appointments'] as const,
  results: ['portal', 'results'] as const,
  bills: ['portal', 'bills'] as const,
};

/** The portal session is gone: it ended (401), or its lab was closed (403 LAB_CLOSED, the session removed). */
const signedOut = (err: unknown) =>
  err instanceof ApiError && (err.status === 401 || (err.status === 403 && err.code === 'LAB_CLOSED'));

/** A portal call; a 401 means the portal session ended, so the page goes back to the sign-in form. */
export async function portalCall<C extends RouteContract>(
  contract: C,
  input: CallInput<C>,
  signal?: AbortSignal,
): Promise<CallOutput<C>> {
  try {
    return await call(contract, input, signal);
  } catch (err) {
    if (signedOut(err)) resetPortal(queryClient);
    throw err;
  }
}

const portalGet = <C extends RouteContract>(contract: C, signal?: AbortSignal) =>
  portalCall(contract, {} as CallInput<C>, signal);

/**
 * Drops every portal record and sets who is signed in (nobody, or the patient who just signed in).
 * The `me` query itself is kept, only its data changes: the page observes it, and a removed query
 * would leave the page watching a stale one.
 */
function resetPortal(qc: QueryClient, patient: PortalPatient | null = null): void {
  qc.removeQueries({ queryKey: portalKeys.all, predicate: (q) => q.queryKey[1] !== 'me' });
  qc.setQueryData(portalKeys.me, patient);
}

/** The signed-in patient, or null when nobody is signed in to the portal. */
export function usePortalMe() {
  return useQuery({
    queryKey: portalKeys.me,
    queryFn: async ({ signal }) => {
      try {
        return (await call(portalApi.me, {}, signal)).patient;
      } catch (err) {
        if (signedOut(err)) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export function usePortalAppointments(enabled: boolean) {
  return useQuery({
    queryKey: portalKeys.appointments,
    queryFn: ({ signal }) => portalGet(portalApi.appointments, signal).then((r) => r.appointments),
    enabled,
  });
}

export function usePortalResults(enabled: boolean) {
  return useQuery({
    queryKey: portalKeys.results,
    queryFn: ({ signal }) => portalGet(portalApi.results, signal).then((r) => r.results),
    enabled,
  });
}

export function usePortalBills(enabled: boolean) {
  return useQuery({
    queryKey: portalKeys.bills,
    queryFn: ({ signal }) => portalGet(portalApi.bills, signal).then((r) => r.bills),
    enabled,
  });
}

export function usePortalLoginMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PortalLogin) => call(portalApi.login, { body }).then((r) => r.patient),
    onSuccess: (patient) => {
      resetPortal(qc, patient);
      notify.success('Login Successful', 'Welcome to your patient portal!');
    },
    onError: (err) => notify.error('Login Failed', err),
  });
}

/** Logout clears the server session and every portal record held in the page (spec 4: logout clears the data). */
export function usePortalLogoutMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(portalApi.logout, {}),
    onSuccess: () => {
      resetPortal(qc);
      notify.success('Logged Out', 'You have been signed out of the patient portal.');
    },
    onError: (err) => notify.error('Logout failed', err),
  });
}

/** The lab's name and contact for the portal's header (public). */
export function usePortalLab() {
  return useQuery({
    queryKey: ['portal', 'lab'] as const,
    queryFn: ({ signal }) => call(portalApi.lab, {}, signal),
    staleTime: 5 * 60_000,
  });
}
