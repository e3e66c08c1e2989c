import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DemoCredential, LoginInput } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/users';
import { api } from '@/lib/api';
import { shellKeys } from '@/lib/session';

export function useDemoCredentials() {
  return useQuery({
    queryKey: shellKeys.demoCredentials,
    queryFn: () => api.get<{ demo: boolean; credentials: DemoCredential[] }>('/api/auth/demo-credentials'),
    staleTime: Infinity,
  });
}

/** Signs in; on success the session query holds the user and every other cached query is refetched. */
export function useLoginMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<{ user: User }>('/api/auth/login', input),
    onSuccess: async ({ user }) => {
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
    mutationFn: () => api.post<{ ok: true }>('/api/auth/logout'),
    // Even if the server says the session was already gone, the browser forgets it.
    onSettled: () => {
      qc.setQueryData(shellKeys.session, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'setup' });
    },
  });
}
