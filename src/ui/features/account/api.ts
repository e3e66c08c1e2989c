import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorConfirm, TwoFactorStatus } from '@shared/schemas/two-factor';
import type { OwnSession } from '@shared/schemas/sessions';
import { accountTwoFactorApi } from '@shared/api/two-factor';
import { accountSessionsApi } from '@shared/api/account-sessions';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { browserOf } from '@/lib/userAgent';

/** Query keys of one's own account. */
export const accountKeys = {
  twoFactor: ['account', 'two-factor'] as const,
  sessions: ['account', 'sessions'] as const,
};

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: accountKeys.twoFactor,
    queryFn: () => call(accountTwoFactorApi.status, {}).then((r) => r.two_factor),
  });
}

/** A new secret and its QR code; nothing is on until `enable` confirms it with a code. */
export function useStartSetupMutation() {
  return useMutation({
    mutationFn: () => call(accountTwoFactorApi.setup, {}).then((r) => r.setup),
  });
}

function useSetStatus() {
  const qc = useQueryClient();
  return (status: TwoFactorStatus) => {
    qc.setQueryData(accountKeys.twoFactor, status);
    // The audit screen shows these changes; the change signed out one's other sessions.
    void qc.invalidateQueries({ queryKey: ['audit'] });
    void qc.invalidateQueries({ queryKey: accountKeys.sessions });
  };
}

export function useEnableMutation() {
  const setStatus = useSetStatus();
  return useMutation({
    mutationFn: (code: string) => call(accountTwoFactorApi.enable, { body: { code } }),
    onSuccess: (r) => setStatus(r.two_factor),
  });
}

export function useDisableMutation() {
  const setStatus = useSetStatus();
  return useMutation({
    mutationFn: (proof: TwoFactorConfirm) => call(accountTwoFactorApi.disable, { body: proof }),
    onSuccess: (r) => setStatus(r.two_factor),
  });
}

export function useNewRecoveryCodesMutation() {
  const setStatus = useSetStatus();
  return useMutation({
    mutationFn: (proof: TwoFactorConfirm) => call(accountTwoFactorApi.recoveryCodes, { body: proof }),
    onSuccess: (r) => setStatus(r.two_factor),
  });
}

export function useOwnSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: () => call(accountSessionsApi.list, {}).then((r) => r.sessions),
  });
}

export function useEndOwnSessionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (session: OwnSession) => call(accountSessionsApi.end, { params: { id: session.id } }),
    onSuccess: (_r, session) => {
      notify.success('Session ended', `${browserOf(session.user_agent)} is signed out at its next click.`);
      return qc.invalidateQueries({ queryKey: accountKeys.sessions });
    },
    onError: (err) => notify.error('Failed to end the session', err),
  });
}

export function useEndOtherSessionsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(accountSessionsApi.endOthers, {}),
    onSuccess: (r) => {
      notify.success(
        r.ended === 1 ? 'One other session ended' : `${r.ended} other sessions ended`,
        'Only this browser is signed in now.',
      );
      return qc.invalidateQueries({ queryKey: accountKeys.sessions });
    },
    onError: (err) => notify.error('Failed to end the other sessions', err),
  });
}
