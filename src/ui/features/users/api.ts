import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User, UserCreate, UserUpdate } from '@shared/schemas/users';
import type {
  ActiveSession,
  BulkAction,
  BulkUsersInput,
  PermissionMatrix,
  PermissionMatrixUpdate,
} from '@shared/schemas/user-admin';
import type { SettingsUpdate } from '@shared/schemas/settings';
import { auditApi, signInApi, usersApi } from '@shared/api/users';
import { userTwoFactorApi } from '@shared/api/two-factor';
import { userInvitationsApi } from '@shared/api/invitations';
import type { UserInvite } from '@shared/schemas/invitations';
import type { IssuedInvitation } from '@shared/schemas/tenants';
import { activityApi, permissionsApi, userAdminApi } from '@shared/api/user-admin';
import { settingsApi } from '@shared/api/settings';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { fullName, shellKeys } from '@/lib/session';

export { useUsers, type UserFilters } from '@/lib/users';

export const userKeys = {
  all: ['users'] as const,
  activity: ['users', 'activity'] as const,
  invitations: ['users', 'invitations'] as const,
};

/** Accounts waiting for their owner to set a password through a link (by user id). */
export function useOpenInvitations() {
  return useQuery({
    queryKey: userKeys.invitations,
    queryFn: ({ signal }) => call(userInvitationsApi.list, {}, signal).then((r) => r.invitations),
  });
}

/** Recent changes to user accounts (Users screen); only asked for when the user has view_audit. */
export function useUserActivity(enabled: boolean) {
  return useQuery({
    queryKey: userKeys.activity,
    queryFn: () => call(auditApi.list, { query: { entity: 'user', limit: 8 } }).then((r) => r.logs),
    enabled,
  });
}

/** Everything a change of accounts can move: lists, cards, the activity panels (audit). */
function useInvalidateUsers() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: userKeys.all }),
      qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
      // The audit screen shows these writes too.
      qc.invalidateQueries({ queryKey: ['audit'] }),
    ]);
}

/** Toasts are the spec's (8): "User created successfully: {name}" / "Failed to create user. Please try again.". */
export function useCreateUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: UserCreate) => call(usersApi.create, { body: input }).then((r) => r.user),
    onSuccess: (user) => {
      notify.success(`User created successfully: ${fullName(user)}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to create user. Please try again.', err),
  });
}

export function useUpdateUserMutation() {
  const invalidate = useInvalidateUsers();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: UserUpdate }) =>
      call(usersApi.update, { params: { id }, body: patch }).then((r) => r.user),
    onSuccess: async (user) => {
      notify.success('User updated successfully', fullName(user));
      await invalidate();
      // Editing yourself (name, department) changes what the shell shows.
      await qc.invalidateQueries({ queryKey: shellKeys.session });
    },
    onError: (err) => notify.error('Failed to update user', err),
  });
}

/** DELETE deactivates: the account stays (bills and the audit trail refer to it) but cannot sign in. */
export function useDeactivateUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: User) => call(usersApi.deactivate, { params: { id: user.id } }).then((r) => r.user),
    onSuccess: (user) => {
      notify.success('User deactivated', `${fullName(user)} can no longer sign in.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to deactivate user', err),
  });
}

export function useReactivateUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: User) =>
      call(usersApi.update, { params: { id: user.id }, body: { is_active: true } }).then((r) => r.user),
    onSuccess: (user) => {
      notify.success('User reactivated', `${fullName(user)} can sign in again.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to reactivate user', err),
  });
}

/** Clears an account's failed sign-ins from every address (it was locked or slowed by wrong passwords). */
export function useUnlockSignInMutation() {
  return useMutation({
    mutationFn: (user: User) => call(signInApi.unlock, { params: { id: user.id } }).then(() => user),
    onSuccess: (user) => notify.success('Sign-in unlocked', `${fullName(user)} can sign in again from any PC.`),
    onError: (err) => notify.error('Failed to unlock sign-in', err),
  });
}

export function useResetPasswordMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ user, password }: { user: User; password: string }) =>
      call(usersApi.resetPassword, { params: { id: user.id }, body: { password } }).then((r) => r.user),
    onSuccess: (user) => {
      notify.success('Password reset', `${fullName(user)} must sign in again with the new password.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to reset password', err),
  });
}

/** A user's two-factor sign-in, as an administrator sees it (never the secret). */
export function useUserTwoFactor(user: User | null) {
  return useQuery({
    queryKey: ['users', 'two-factor', user?.id],
    queryFn: () => call(userTwoFactorApi.status, { params: { id: user!.id } }).then((r) => r.two_factor),
    enabled: user !== null,
  });
}

/** A lost phone: two-factor off and the user's sessions ended; they set it up again if the lab requires it. */
export function useResetTwoFactorMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (user: User) =>
      call(userTwoFactorApi.reset, { params: { id: user.id } }).then((r) => ({ user, status: r.two_factor })),
    onSuccess: async ({ user, status }) => {
      qc.setQueryData(['users', 'two-factor', user.id], status);
      notify.success(
        'Two-factor sign-in reset',
        status.required
          ? `${fullName(user)} sets up a new authenticator at their next sign-in.`
          : `${fullName(user)} signs in with their password only until they set it up again.`,
      );
      await qc.invalidateQueries({ queryKey: ['audit'] });
    },
    onError: (err) => notify.error('Failed to reset two-factor sign-in', err),
  });
}

/** Add User without a password: the account gets a one-time link, shown by the dialog. */
export function useInviteUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: UserInvite) => call(userInvitationsApi.invite, { body: input }),
    onSuccess: ({ user }) => {
      notify.success(`User invited: ${fullName(user)}`, 'Copy the invitation link and send it to them.');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to invite user. Please try again.', err),
  });
}

/** A new link for an invited account; the earlier link stops working. */
export function useReissueInvitationMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: User): Promise<IssuedInvitation> =>
      call(userInvitationsApi.reissue, { params: { id: user.id } }).then((r) => r.invitation),
    onSuccess: () => invalidate(),
    onError: (err) => notify.error('Failed to make a new invitation link', err),
  });
}

export function useWithdrawInvitationMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: User) => call(userInvitationsApi.withdraw, { params: { id: user.id } }).then(() => user),
    onSuccess: (user) => {
      notify.success('Invitation withdrawn', `${fullName(user)}'s link no longer works.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to withdraw the invitation', err),
  });
}

// ---- The Users screen's tools -----------------------------------------------------------

export const userAdminKeys = {
  permissions: ['permissions'] as const,
  signIns: (query: SignInQuery) => ['users', 'sign-ins', query] as const,
  sessions: ['users', 'sessions'] as const,
  /** The same key as System Settings: both screens edit, and show, one copy of the lab's settings. */
  settings: ['settings'] as const,
};

export type SignInQuery = { page: number; limit: number; status?: 'success' | 'failed' };

export function usePermissionMatrix() {
  return useQuery({
    queryKey: userAdminKeys.permissions,
    queryFn: () => call(permissionsApi.get, {}).then((r) => r.matrix),
  });
}

/** Saves the roles' permissions; the signed-in user's own permissions may change with them. */
export function useSavePermissionsMutation() {
  const qc = useQueryClient();
  const invalidate = useInvalidateUsers();
  const done = async (matrix: PermissionMatrix) => {
    qc.setQueryData(userAdminKeys.permissions, matrix);
    await Promise.all([invalidate(), qc.invalidateQueries({ queryKey: shellKeys.session })]);
  };
  const save = useMutation({
    mutationFn: (body: PermissionMatrixUpdate) => call(permissionsApi.update, { body }).then((r) => r.matrix),
    onSuccess: (m) => {
      notify.success('Permissions saved', 'The server applies them from the next request.');
      return done(m);
    },
    onError: (err) => notify.error('Permissions not saved', err),
  });
  const reset = useMutation({
    mutationFn: () => call(permissionsApi.reset, {}).then((r) => r.matrix),
    onSuccess: (m) => {
      notify.success('Permissions reset to the defaults');
      return done(m);
    },
    onError: (err) => notify.error('Permissions not reset', err),
  });
  return { save, reset };
}

export function useSuspendUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ user, reason }: { user: User; reason: string }) =>
      call(userAdminApi.suspend, { params: { id: user.id }, body: { reason } }).then((r) => r.user),
    onSuccess: (user) => {
      notify.success('User suspended', `${fullName(user)} is signed out and cannot sign in.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to suspend user', err),
  });
}

export function useUnsuspendUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: User) => call(userAdminApi.unsuspend, { params: { id: user.id } }).then((r) => r.user),
    onSuccess: (user) => {
      notify.success('Suspension lifted', `${fullName(user)} can sign in again.`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to lift the suspension', err),
  });
}

const BULK_DONE: Record<BulkAction, string> = {
  activate: 'activated',
  deactivate: 'deactivated',
  suspend: 'suspended',
  change_role: 'given the new role',
};

/** One call for the selection: all of it changes, or (with the server's reason) none of it. */
export function useBulkUsersMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: BulkUsersInput) => call(userAdminApi.bulk, { body }),
    onSuccess: (result, body) => {
      const n = result.changed;
      const same = result.users.length - n;
      notify.success(
        `${n} ${n === 1 ? 'user' : 'users'} ${BULK_DONE[body.action]}`,
        same > 0 ? `${same} already ${same === 1 ? 'was' : 'were'} as asked.` : undefined,
      );
      return invalidate();
    },
    onError: (err) => notify.error('Bulk operation failed: nobody was changed', err),
  });
}

export function useSignIns(query: SignInQuery, enabled: boolean) {
  return useQuery({
    queryKey: userAdminKeys.signIns(query),
    queryFn: () => call(activityApi.signIns, { query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useActiveSessions(enabled: boolean) {
  return useQuery({
    queryKey: userAdminKeys.sessions,
    queryFn: () => call(activityApi.sessions, {}).then((r) => r.sessions),
    enabled,
  });
}

export function useEndSessionMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (session: ActiveSession) => call(activityApi.endSession, { params: { id: session.id } }),
    onSuccess: (_r, session) => {
      notify.success('Session ended', `${session.user_name} is signed out on that device at their next click.`);
      return Promise.all([
        qc.invalidateQueries({ queryKey: userAdminKeys.sessions }),
        qc.invalidateQueries({ queryKey: ['audit'] }),
      ]);
    },
    onError: (err) => notify.error('Failed to end the session', err),
  });
}

export function useLabSettings(enabled: boolean) {
  return useQuery({
    queryKey: userAdminKeys.settings,
    queryFn: () => call(settingsApi.get, {}).then((r) => r.settings),
    enabled,
  });
}

/** The User Management settings go through the same PUT /api/settings as System Settings (only these fields). */
export function useSaveUserSettingsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdate) => call(settingsApi.update, { body }).then((r) => r.settings),
    onSuccess: (settings) => {
      qc.setQueryData(userAdminKeys.settings, settings);
      notify.success('Settings saved');
    },
  });
}
