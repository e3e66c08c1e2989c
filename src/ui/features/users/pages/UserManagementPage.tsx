import { useState } from 'react';
import { KeyRound, Pencil, RotateCcw, UserMinus, UserPlus } from 'lucide-react';
import type { User } from '@shared/schemas/users';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  ConfirmDialog,
  DataTable,
  FilterBar,
  PageHeader,
  type Column,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { useUrlState } from '@/lib/useUrlState';
import { fullName, useCurrentUser } from '@/lib/session';
import { NoAccess } from '@/components/NoAccess';
import { useDeactivateUserMutation, useReactivateUserMutation, useUsers } from '../api';
import { can, isRole, mayManage, ROLE_FILTER_OPTIONS, roleLabel } from '@/lib/roles';
import { UserFormDialog } from '../components/UserFormDialog';
import { ResetPasswordDialog } from '../components/ResetPasswordDialog';

const columns: Column<User>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (u) => (
      <>
        <span className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium text-slate-900">{fullName(u)}</span>
          {!u.is_active && <Badge status="inactive" />}
        </span>
        {/* Phones have no room for an email column: show it under the name. */}
        <span className="block text-[13px] break-all text-slate-600 md:hidden">{u.email}</span>
      </>
    ),
  },
  { key: 'email', header: 'Email', cell: (u) => <span className="break-all">{u.email}</span>, hideOnMobile: true },
  { key: 'role', header: 'Role', cell: (u) => <Badge tone="blue">{roleLabel(u.role)}</Badge> },
  { key: 'department', header: 'Department', cell: (u) => u.department ?? '—', hideOnMobile: true },
  { key: 'specialization', header: 'Specialization', cell: (u) => u.specialization ?? '—', hideOnMobile: true },
  {
    key: 'phone',
    header: 'Phone',
    cell: (u) => <span className="whitespace-nowrap">{u.phone ?? '—'}</span>,
    hideOnMobile: true,
  },
];

/** Spec 2.17: search, role filter, the users table, add / edit / deactivate / reactivate / reset password. */
export default function UserManagementPage() {
  const me = useCurrentUser();
  const screen = useScreen();
  const [q, setQ, resetQ, isActive] = useUrlState({ search: '', role: 'all', inactive: '' });
  const role = isRole(q.role) ? q.role : '';
  const canView = can(me, 'view_users');
  const canManage = can(me, 'manage_users');
  const users = useUsers({ search: q.search, role, include_inactive: q.inactive === '1' }, { enabled: canView });

  const [formUser, setFormUser] = useState<User | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [resetUser, setResetUser] = useState<User | null>(null);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const deactivate = useDeactivateUserMutation();
  const reactivate = useReactivateUserMutation();

  if (!canView) {
    return (
      <>
        <PageHeader title={screen.title} subtitle={screen.subtitle} />
        <NoAccess what="staff accounts" permission="view_users" />
      </>
    );
  }

  const manageable = (u: User) => canManage && mayManage(me, u);
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
      label: (u) => `Reactivate ${fullName(u)}`,
      icon: <RotateCcw />,
      onClick: (u) => reactivate.mutate(u),
      hidden: (u) => u.is_active || !manageable(u),
      disabled: () => reactivate.isPending,
    },
    {
      label: (u) => `Deactivate ${fullName(u)}`,
      icon: <UserMinus />,
      destructive: true,
      onClick: setDeactivating,
      // The superadmin row has no delete action (spec 5); nobody deactivates themselves.
      hidden: (u) => !u.is_active || u.role === 'superadmin' || u.id === me.id || !manageable(u),
    },
  ];

  const filtered = isActive('search', 'role');
  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle={screen.subtitle}
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
        <div className="border-b border-slate-100 p-3">
          <FilterBar
            search={q.search}
            onSearchChange={(search) => setQ({ search }, { replace: true })}
            searchPlaceholder="Search by name, email or specialization..."
            selects={[{ key: 'role', label: 'Role', value: q.role, options: ROLE_FILTER_OPTIONS }]}
            onSelectChange={(key, value) => setQ({ [key]: value })}
            active={filtered || q.inactive === '1'}
            onClear={resetQ}
          >
            <Checkbox
              label="Show inactive"
              checked={q.inactive === '1'}
              onChange={(e) => setQ({ inactive: e.target.checked ? '1' : '' })}
              className="px-1"
            />
          </FilterBar>
        </div>
        <DataTable
          caption="Users"
          columns={columns}
          rows={users.data}
          getRowId={(u) => u.id}
          loading={users.isPending}
          error={users.error}
          onRetry={() => void users.refetch()}
          retryLabel="Retry Connection"
          rowActions={canManage ? actions : undefined}
          empty={{
            title: 'No users found',
            hint: filtered
              ? 'Try adjusting your search or filter criteria.'
              : q.inactive === '1'
                ? 'This lab has no staff accounts.'
                : 'No active staff accounts.',
          }}
        />
        {users.data && users.data.length > 0 && (
          <p className="border-t border-slate-100 px-3 py-2 text-[13px] text-slate-600" aria-live="polite">
            {users.data.length} {users.data.length === 1 ? 'user' : 'users'}
            {q.inactive === '1' ? ' (including inactive)' : ''}
          </p>
        )}
      </Card>

      <UserFormDialog open={formOpen} onOpenChange={setFormOpen} user={formUser} />
      <ResetPasswordDialog user={resetUser} onClose={() => setResetUser(null)} />
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
