import { titledName } from '@shared/person-name';
import { useQuery } from '@tanstack/react-query';
import type { User } from '@shared/schemas/users';
import type { CallOutput } from '@shared/api/contract';
import { authApi } from '@shared/api/auth';
import { setupApi } from '@shared/api/setup';
import { ApiError, call } from './api';

/** Query keys the app shell owns; features keep their own factories in features/<name>/api.ts. */
export const shellKeys = {
  session: ['session'] as const,
  setupStatus: ['setup', 'status'] as const,
  demoCredentials: ['auth', 'demo-credentials'] as const,
  dashboardStats: ['dashboard', 'stats'] as const,
  health: ['health'] as const,
  signInLab: ['auth', 'lab'] as const,
  myLab: ['auth', 'my-lab'] as const,
};

/** The signed-in user, or null when nobody is (401). Other errors (server down) stay errors. */
export async function fetchSession(): Promise<User | null> {
  try {
    const { user } = await call(authApi.me, {});
    return user;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** The session query; the app asks for it as it starts (src/ui/app/warmUp.ts), components read it. */
export const sessionQuery = { queryKey: shellKeys.session, queryFn: fetchSession, staleTime: 60_000, retry: 1 };

export function useSession() {
  return useQuery(sessionQuery);
}

/** The current user; only call below ProtectedLayout, where a user is guaranteed. */
export function useCurrentUser(): User {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentUser used outside a signed-in page');
  return data;
}

export type SetupStatus = CallOutput<typeof setupApi.status>;

export const setupStatusQuery = {
  queryKey: shellKeys.setupStatus,
  queryFn: () => call(setupApi.status, {}),
  staleTime: Infinity,
  retry: 1,
};

export function useSetupStatus() {
  return useQuery(setupStatusQuery);
}

/** "Asha Rao" -> "AR"; no name -> the part of the email before @, uppercased (spec 2.7). */
export function initialsOf(user: Pick<User, 'first_name' | 'last_name' | 'email'>): string {
  const first = user.first_name.trim().charAt(0);
  const last = user.last_name.trim().charAt(0);
  if (first || last) return `${first}${last}`.toUpperCase();
  return (user.email.split('@')[0] ?? '').toUpperCase();
}

/** "Dr. Meena Kulkarni": the title (when there is one) before the name. */
export function fullName(user: Pick<User, 'first_name' | 'last_name'> & { title?: string | null }): string {
  return titledName(user);
}

/**
 * The lab named on the sign-in page (the lab of this address; null before setup), and whether the
 * page asks which lab (a server of several labs reached at an address that names none).
 */
export function useSignInLab() {
  return useQuery({
    queryKey: shellKeys.signInLab,
    queryFn: () => call(authApi.signInLab, {}),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

/** The signed-in user's lab name (the sidebar). */
export function useMyLab(enabled = true) {
  return useQuery({
    queryKey: shellKeys.myLab,
    queryFn: () => call(authApi.myLab, {}).then((r) => r.name),
    staleTime: 5 * 60_000,
    enabled,
  });
}
