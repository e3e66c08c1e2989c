import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginInput } from '@shared/schemas/auth';
import type { User } from '@shared/schemas/users';
import type { LoginTwoFactorInput } from '@shared/schemas/two-factor';
import { authApi } from '@shared/api/auth';
import { loginTwoFactorApi } from '@shared/api/two-factor';
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
 * The session has started: the session query holds the user (the shell then shows the page) and
 * every other cached query is refetched. Toasts live here, not in mutate() callbacks: the form
 * unmounts as soon as the session is set, and mutate() callbacks of an unmounted component never run.
 */
export function useSignedIn() {
  const qc = useQueryClient();
  return async (user: User) => {
    notify.success('Login Successful', `Welcome back, ${user.first_name} ${user.last_name}!`);
    qc.setQueryData(shellKeys.session, user);
    // Data cached for another user (or none) must not show: refetch whatever is on screen next.
    await qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  };
}

/** Signs in with email and password; a user with two-factor gets a challenge for the code step instead. */
export function useLoginMutation() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (input: LoginInput) => call(authApi.login, { body: input }),
    onError: (err) => {
      notify.error('Login Failed', err instanceof ApiError && err.message ? err.message : 'Login failed');
    },
    onSuccess: async ({ user }) => {
      if (user) await signedIn(user);
    },
  });
}

/**
 * The code step of sign-in. A code (or recovery code) for a `verify` challenge signs in at once;
 * a set-up at sign-in answers recovery codes, and the caller shows them before calling useSignedIn.
 */
export function useTwoFactorLoginMutation() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (input: LoginTwoFactorInput) => call(loginTwoFactorApi.verify, { body: input }),
    onSuccess: async ({ user, recovery_codes }) => {
      if (!recovery_codes) await signedIn(user);
    },
  });
}

/** The QR code and key of a set-up at sign-in (the lab requires two-factor). */
export function useTwoFactorLoginSetup(challenge: string | null) {
  return useQuery({
    queryKey: ['auth', 'two-factor-setup', challenge],
    queryFn: () => call(loginTwoFactorApi.setup, { body: { challenge: challenge! } }).then((r) => r.setup),
    enabled: challenge !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
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
