import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorConfirm, TwoFactorStatus } from '@shared/schemas/two-factor';
import { accountTwoFactorApi } from '@shared/api/two-factor';
import { call } from '@/lib/api';

/** Query keys of one's own account. */
export const accountKeys = {
  twoFactor: ['account', 'two-factor'] as const,
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
    // The audit screen shows these changes.
    void qc.invalidateQueries({ queryKey: ['audit'] });
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
