import { useState } from 'react';
import { KeyRound, LockOpen, Pencil, RotateCcw, ShieldCheck, UserMinus, UserPlus } from 'lucide-react';
import type { User } from '@shared/schemas/users';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  ConfirmDialog,
  FilteredTable,
  queryState,
  ScreenHeader,
  screenPermissionPage,
  type Column,
  type RowAction,
} from '@/components';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { fullName, useCurrentUser } from '@/lib/session';
import { useDeactivateUserMutation, useReactivateUserMutation, useUnlockSignInMutation, useUsers } from '../api';
import { can, isRole, mayManage, ROLE_FILTER_OPTIONS } from '@/lib/roles';
import { EmailUnderName, emailColumn, phoneColumn, roleColumn, userTable } from '../components/userColumns';
import { UserFormDialog } from '../components/UserFormDialog';
import { ResetPasswordDialog } from '../components/ResetPasswordDialog';
import { TwoFactorDialog } from '../components/TwoFactorDialog';
import { useSuspendActions } from '../components/SuspendDialog';

const columns: Column<User>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (u) => (
      <>
        <span className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium text-slate-900">{fullName(u)}</span>
          {u.status !== 'active' && <Badge status={u.status} />}
        </span>
        <EmailUnderName user={u} />
      </>
    ),
  },
  emailColumn,
  roleColumn,
  { key: 'department', header: 'Department', cell: (u) => u.department ?? '—', hideOnMobile: true },
  { key: 'specialization', header: 'Specialization', cell: (u) => u.specialization ?? '—', hideOnMobile: true },
  phoneColumn,
];

/** Spec 2.17: search, role filter, the users table, add / edit / deactivate / reactivate / reset password. */
const FILTERS: ListFilter[] = [{ key: 'role', label: 'Role', options: ROLE_FILTER_OPTIONS }];
const EXTRA = { inactive: '' };
const EXTRA_FILTERS = ['inactive'];

export default screenPermissionPage('view_users', 'staff accounts', UserManagement);

function UserManagement() {
  const me = useCurrentUser();
  const list = usePagedList({
    filters: FILTERS,
    pageSizes: [],
    defaultLimit: 0,
    extra: EXTRA,
    extraFilters: EXTRA_FILTERS,
  });
  const inactive = list.state.inactive === '1';
  const chosen = list.values.role ?? '';
  const role = isRole(chosen) ? chosen : '';
  const canManage = can(me, 'manage_users');
  const users = useUsers({ search: list.search, role, include_inactive: inactive });

  const [formUser, setFormUser] = useState<User | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [resetUser, setResetUser] = useState<User | null>(null);
  const [twoFactorUser, setTwoFactorUser] = useState<User | null>(null);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const deactivate = useDeactivateUserMutation();
  const reactivate = useReactivateUserMutation();
  const unlock = useUnlockSignInMutation();

  const manageable = (u: User) => canManage && mayManage(me, u);
  const suspension = useSuspendActions(manageable);
  const actions: RowAction<User>[] = [
    {
      label: (u) => `Edit ${fullName(u)}`,
      icon: <Pencil />,
      onClick: (u) => {
        setFormUser(u);
        setFormOpen(true);
      },
      hidden: (u) => !manageable(u),
    },
    {
      label: (u) => `Reset password for ${fullName(u)}`,
      icon: <KeyRound />,
      onClick: setResetUser,
      hidden: (u) => !manageable(u),
    },
    {
      label: (u) => `Unlock sign-in for ${fullName(u)}`,
      icon: <LockOpen />,
      onClick: (u) => unlock.mutate(u),
      hidden: (u) => !u.is_active || !manageable(u),
      disabled: () => unlock.isPending,
    },
    {
      label: (u) => `Two-factor sign-in of ${fullName(u)}`,
      icon: <ShieldCheck />,
      onClick: setTwoFactorUser,
      // One's own is changed from the account menu, with a code or the password.
      hidden: (u) => !u.is_active || u.id === me.id || !manageable(u),
    },
    {
      label: (u) => `Reactivate ${fullName(u)}`,
      icon: <RotateCcw />,
      onClick: (u) => reactivate.mutate(u),
      // A suspended user's suspension is lifted with its own action.
      hidden: (u) => u.is_active || u.status === 'suspended' || !manageable(u),
      disabled: () => reactivate.isPending,
    },
    suspension.lift,
    suspension.suspend,
    {
      label: (u) => `Deactivate ${fullName(u)}`,
      icon: <UserMinus />,
      destructive: true,
      onClick: setDeactivating,
      // The superadmin row has no delete action (spec 5); nobody deactivates themselves.
      hidden: (u) => !u.is_active || u.role === 'superadmin' || u.id === me.id || !manageable(u),
    },
  ];

  return (
    <>
      <ScreenHeader
        actions={
          canManage && (
            <Button
              onClick={() => {
                setFormUser(null);
                setFormOpen(true);
              }}
            >
              <UserPlus />
              Add User
            </Button>
          )
        }
      />
      {!canManage && (
        <p className="mb-4 rounded-md border border-slate-200 bg-white px-3 py-2 text-[13px] text-slate-700">
          You can view staff accounts. Adding or changing them needs the <code>manage_users</code> permission.
        </p>
      )}
      <Card>
        <FilteredTable
          list={list}
          rows={users.data}
          {...queryState(users)}
          columns={columns}
          {...userTable}
          filterExtras={
            <Checkbox
              label="Show inactive"
              checked={inactive}
              onChange={(e) => list.setState({ inactive: e.target.checked ? '1' : '' })}
              className="px-1"
            />
          }
          rowActions={canManage ? actions : undefined}
          empty={{
            title: 'No users found',
            hint: inactive ? 'This lab has no staff accounts.' : 'No active staff accounts.',
            filteredHint:
              list.search || list.values.role !== 'all'
                ? 'Try adjusting your search or filter criteria.'
                : 'This lab has no staff accounts.',
          }}
        />
        {users.data && users.data.length > 0 && (
          <p className="border-t border-slate-100 px-3 py-2 text-[13px] text-slate-600" aria-live="polite">
            {users.data.length} {users.data.length === 1 ? 'user' : 'users'}
            {inactive ? ' (including inactive)' : ''}
          </p>
        )}
      </Card>

      <UserFormDialog open={formOpen} onOpenChange={setFormOpen} user={formUser} />
      <ResetPasswordDialog user={resetUser} onClose={() => setResetUser(null)} />
      <TwoFactorDialog user={twoFactorUser} onClose={() => setTwoFactorUser(null)} />
      {suspension.dialog}
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(o) => !o && setDeactivating(null)}
        title="Deactivate User"
        message={
          deactivating &&
          `Are you sure you want to deactivate ${fullName(deactivating)}? They will no longer be able to sign in. Their records and audit history are kept, and you can reactivate them later.`
        }
        confirmLabel="Deactivate"
        busyLabel="Deactivating..."
        busy={deactivate.isPending}
        onConfirm={() => deactivating && deactivate.mutate(deactivating, { onSettled: () => setDeactivating(null) })}
      />
    </>
  );
}
