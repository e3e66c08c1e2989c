import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginInput } from '@shared/schemas/auth';
import { authApi } from '@shared/api/auth';
import { ApiError, call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';

export function useDemoCredentials() {
  return useQuery({
    queryKey: shellKeys.demoCredentials,
    queryFn: () => call(authApi.demoCredentials, {}),
    staleTime: Infinity,
  });
}

/**
 * Signs in; on success the session query holds the user (the shell then shows the page) and every
 * other cached query is refetched. Toasts live here, not in mutate() callbacks: the form unmounts
 * as soon as the session is set, and mutate() callbacks of an unmounted component never run.
 */
export function useLoginMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => call(authApi.login, { body: input }),
    onError: (err) => {
      notify.error('Login Failed', err instanceof ApiError && err.message ? err.message : 'Login failed');
    },
    onSuccess: async ({ user }) => {
      notify.success('Login Successful', `Welcome back, ${user.first_name} ${user.last_name}!`);
      qc.setQueryData(shellKeys.session, user);
      // Data cached for another user (or none) must not show: refetch whatever is on screen next.
      await qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
  });
}

/** Ends the session on the server, then forgets everything cached in the browser. */
export function useLogoutMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => call(authApi.logout, {}),
    // Even if the server says the session was already gone, the browser forgets it.
    onSettled: () => {
      qc.setQueryData(shellKeys.session, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'setup' });
    },
  });
}
