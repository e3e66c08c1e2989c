import { useMemo, useState } from 'react';
import { Link2, Link2Off, Stethoscope, UserCheck, UserPlus, UserX, Users } from 'lucide-react';
import { USER_STATUSES, type User, type UserStatus } from '@shared/schemas/users';
import type { IssuedInvitation } from '@shared/schemas/tenants';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateText,
  FilteredTable,
  ScreenHeader,
  screenPermissionPage,
  SummaryCards,
  queryState,
  type Column,
  type RowAction,
} from '@/components';
import { InvitationLinkDialog } from '@/components/InvitationLinkDialog';
import { Tabs } from '@/components/Tabs';
import { choiceOptions, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { formatCount, humanize } from '@/lib/format';
import { fullName, useCurrentUser } from '@/lib/session';
import { useOpenInvitations, useReissueInvitationMutation, useUsers, useWithdrawInvitationMutation } from '../api';
import { can, isRole, mayManage, ROLE_FILTER_OPTIONS, roleLabel } from '@/lib/roles';
import { UserFormDialog } from '../components/UserFormDialog';
import { PermissionManager } from '../components/PermissionManager';
import { RecentUserActivity } from '../components/RecentUserActivity';
import { ActivityMonitor } from '../components/ActivityMonitor';
import { UserManagementSettings } from '../components/UserManagementSettings';
import { BulkOperationsBar } from '../components/BulkOperationsBar';
import { useSuspendActions } from '../components/SuspendDialog';
import { EmailUnderName, emailColumn, phoneColumn, roleColumn, userTable } from '../components/userColumns';

const STATUS_OPTIONS = choiceOptions('All Statuses', USER_STATUSES, humanize);

const isStatus = (v: string): v is UserStatus => (USER_STATUSES as readonly string[]).includes(v);

const STATUS_HINT: Record<UserStatus, string> = {
  active: 'Can sign in',
  inactive: 'Deactivated: cannot sign in',
  suspended: 'Suspended: cannot sign in until the suspension is lifted',
  pending: 'Invited: has not set a password or signed in yet',
};

const columns: Column<User>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (u) => (
      <>
        <span className="block font-medium text-slate-900">{fullName(u)}</span>
        {/* Phones have no room for the role column either: the role goes under the name too. */}
        <EmailUnderName user={u} />
        <Badge tone="blue" className="mt-1 md:hidden">
          {roleLabel(u.role)}
        </Badge>
      </>
    ),
  },
  emailColumn,
  phoneColumn,
  { ...roleColumn, hideOnMobile: true },
  {
    key: 'status',
    header: 'Status',
    cell: (u) => (
      <span title={u.suspended_reason ? `${STATUS_HINT[u.status]} (${u.suspended_reason})` : STATUS_HINT[u.status]}>
        <Badge status={u.status} />
      </span>
    ),
  },
  {
    key: 'last_login',
    header: 'Last Login',
    cell: (u) =>
      u.last_login ? <DateText value={u.last_login} withTime /> : <span className="text-slate-500">Never</span>,
    hideOnMobile: true,
  },
  { key: 'created', header: 'Created', cell: (u) => <DateText value={u.created_at} />, hideOnMobile: true },
];

const FILTERS: ListFilter[] = [
  { key: 'role', label: 'Role', options: ROLE_FILTER_OPTIONS },
  { key: 'status', label: 'Status', options: STATUS_OPTIONS },
];
const EXTRA = { tab: 'users' };

/** The spec's Users screen, made real: figures, table, activity, permissions and the tools, all from the server. */
export default screenPermissionPage('view_users', 'staff accounts', UsersScreen);

function UsersScreen() {
  const me = useCurrentUser();
  const list = usePagedList({ filters: FILTERS, pageSizes: [], defaultLimit: 0, extra: EXTRA });
  const [adding, setAdding] = useState(false);
  const canManage = can(me, 'manage_users');
  const canAudit = can(me, 'view_audit');

  const everyone = useUsers({ include_inactive: true });
  const all = everyone.data;
  const count = (f: (u: User) => boolean) => all?.filter(f).length;
  const suspended = count((u) => u.status === 'suspended');
  const cards = [
    { label: 'Total Users', value: all?.length, hint: 'all staff accounts', icon: <Users /> },
    { label: 'Active Users', value: count((u) => u.status === 'active'), hint: 'can sign in', icon: <UserCheck /> },
    {
      label: 'Inactive Users',
      value: count((u) => u.status === 'inactive' || u.status === 'suspended'),
      hint: suspended ? `deactivated or suspended (${suspended} suspended)` : 'deactivated or suspended',
      icon: <UserX />,
    },
    {
      label: 'Doctors',
      value: count((u) => u.is_active && u.role === 'doctor'),
      hint: 'active, doctor role',
      icon: <Stethoscope />,
    },
  ];

  const tabs = [
    { value: 'users', label: 'Users', content: <UsersTab list={list} everyone={all} /> },
    {
      value: 'permissions',
      label: <Short phone="Permissions" full="Permission Manager" />,
      content: <PermissionManager />,
    },
    ...(canManage || canAudit
      ? [
          {
            value: 'activity',
            label: <Short phone="Activity" full="Activity Monitor" />,
            content: <ActivityMonitor canManage={canManage} canAudit={canAudit} />,
          },
        ]
      : []),
    ...(can(me, 'system_settings')
      ? [{ value: 'settings', label: 'Settings', content: <UserManagementSettings /> }]
      : []),
  ];
  const tab = tabs.some((t) => t.value === list.state.tab) ? String(list.state.tab) : 'users';

  return (
    <>
      <ScreenHeader
        actions={
          canManage && (
            <Button onClick={() => setAdding(true)}>
              <UserPlus />
              Add User
            </Button>
          )
        }
      />
      <SummaryCards
        label="User counts"
        loading={everyone.isPending}
        cards={cards.map((c) => ({ ...c, value: everyone.isError ? '—' : formatCount(c.value ?? null) }))}
      />
      <Tabs
        label="User tools"
        tabs={tabs.map((t) => ({ ...t, content: <div className="pt-5">{t.content}</div> }))}
        value={tab}
        onValueChange={(v) => list.setState({ tab: v })}
      />
      <UserFormDialog open={adding} onOpenChange={setAdding} user={null} />
    </>
  );
}

/** A tab's name, shorter on a phone so that every tab fits without scrolling. */
function Short({ phone, full }: { phone: string; full: string }) {
  return (
    <>
      <span className="sm:hidden">{phone}</span>
      <span className="hidden sm:inline">{full}</span>
    </>
  );
}

function UsersTab({ list, everyone }: { list: ReturnType<typeof usePagedList>; everyone: User[] | undefined }) {
  const me = useCurrentUser();
  const chosen = list.values.role ?? '';
  const role = isRole(chosen) ? chosen : '';
  const status = isStatus(list.values.status ?? '') ? (list.values.status as UserStatus) : '';
  const listed = useUsers({ search: list.search, role, status });
  const canManage = can(me, 'manage_users');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  // Invited accounts (status pending): a new link, or withdraw the one sent.
  const openInvitations = useOpenInvitations();
  const invitations = useMemo(
    () => new Map((openInvitations.data ?? []).map((i) => [i.user_id, i])),
    [openInvitations.data],
  );
  const reissue = useReissueInvitationMutation();
  const withdraw = useWithdrawInvitationMutation();
  const [link, setLink] = useState<IssuedInvitation | null>(null);
  const [withdrawing, setWithdrawing] = useState<User | null>(null);

  const names = useMemo(() => new Map((everyone ?? []).map((u) => [String(u.id), fullName(u)])), [everyone]);

  // Yourself and users ranked above you cannot be changed: the server would refuse them.
  const selectable = (u: User) => canManage && u.id !== me.id && mayManage(me, u) && u.role !== 'superadmin';
  const suspension = useSuspendActions((u) => canManage && mayManage(me, u));
  const rows = listed.data;
  const choosable = rows?.filter(selectable) ?? [];
  const chosenRows = rows?.filter((u) => selected.has(u.id)) ?? [];
  const allChosen = choosable.length > 0 && choosable.every((u) => selected.has(u.id));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const selectColumn: Column<User> = {
    key: 'select',
    header: (
      <input
        type="checkbox"
        className="size-4 rounded border-slate-400 accent-primary-600"
        aria-label="Select all users shown"
        checked={allChosen}
        disabled={choosable.length === 0}
        onChange={() => setSelected(allChosen ? new Set() : new Set(choosable.map((u) => u.id)))}
      />
    ),
    cell: (u) => (
      <input
        type="checkbox"
        className="size-4 rounded border-slate-400 accent-primary-600 disabled:opacity-40"
        aria-label={`Select ${fullName(u)}`}
        title={selectable(u) ? undefined : u.id === me.id ? 'This is you' : 'You cannot change this user'}
        checked={selected.has(u.id)}
        disabled={!selectable(u)}
        onChange={() => toggle(u.id)}
      />
    ),
  };

  const actions: RowAction<User>[] = [
    suspension.suspend,
    suspension.lift,
    {
      label: (u) => `New invitation link for ${fullName(u)}`,
      icon: <Link2 />,
      onClick: (u) => reissue.mutate(u, { onSuccess: setLink }),
      hidden: (u) => !invitations.has(u.id),
      disabled: () => reissue.isPending,
    },
    {
      label: (u) => `Withdraw invitation for ${fullName(u)}`,
      icon: <Link2Off />,
      onClick: setWithdrawing,
      hidden: (u) => !invitations.has(u.id),
      destructive: true,
    },
  ];

  return (
    <div className="grid gap-5 2xl:grid-cols-3">
      <Card className={can(me, 'view_audit') ? 'min-w-0 2xl:col-span-2' : 'min-w-0 2xl:col-span-3'}>
        {canManage && <BulkOperationsBar selected={chosenRows} onDone={() => setSelected(new Set())} />}
        <FilteredTable
          list={list}
          rows={rows}
          totalCount={everyone?.length}
          {...queryState(listed)}
          columns={canManage ? [selectColumn, ...columns] : columns}
          {...userTable}
          rowActions={canManage ? actions : undefined}
          empty={{ title: 'No users found', filteredHint: 'Try adjusting your search or filter criteria.' }}
        />
      </Card>
      {can(me, 'view_audit') && (
        <div className="min-w-0">
          <RecentUserActivity nameOf={(id) => (id ? (names.get(id) ?? null) : null)} />
        </div>
      )}
      {suspension.dialog}
      <InvitationLinkDialog
        invitation={link}
        title={link ? `New invitation link: ${link.email}` : 'New invitation link'}
        description="The earlier link no longer works."
        onClose={() => setLink(null)}
      />
      <ConfirmDialog
        open={withdrawing !== null}
        onOpenChange={(o) => !o && setWithdrawing(null)}
        title="Withdraw Invitation"
        message={
          withdrawing
            ? `Withdraw the invitation for ${fullName(withdrawing)}? Their link stops working; the account stays without a password until you send a new link or deactivate it.`
            : ''
        }
        confirmLabel="Withdraw"
        busy={withdraw.isPending}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing, { onSuccess: () => setWithdrawing(null) })}
      />
    </div>
  );
}
