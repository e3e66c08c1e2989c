import { useMemo, useState } from 'react';
import { Link2, Link2Off, Stethoscope, UserCheck, UserPlus, UserX, Users } from 'lucide-react';
import type { User } from '@shared/schemas/users';
import type { OpenInvitation } from '@shared/schemas/invitations';
import type { IssuedInvitation } from '@shared/schemas/tenants';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DateText,
  Dialog,
  FilteredTable,
  InvitationLink,
  PageHeader,
  RequirePermission,
  SummaryCards,
  type Column,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { formatCount } from '@/lib/format';
import { fullName, useCurrentUser } from '@/lib/session';
import { useOpenInvitations, useReissueInvitationMutation, useUsers, useWithdrawInvitationMutation } from '../api';
import { can, isRole, ROLE_FILTER_OPTIONS, roleLabel } from '@/lib/roles';
import { UserFormDialog } from '../components/UserFormDialog';
import { RolePermissionsPanel } from '../components/RolePermissionsPanel';
import { RecentUserActivity } from '../components/RecentUserActivity';

const STATUS_OPTIONS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** The table's columns; an invited account that has not set a password yet shows as Invited. */
function columnsFor(invitations: ReadonlyMap<number, OpenInvitation>): Column<User>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      cell: (u) => (
        <>
          <span className="block font-medium text-slate-900">{fullName(u)}</span>
          {/* Phones have no room for an email column: show it under the name. */}
          <span className="block text-[13px] break-all text-slate-600 md:hidden">{u.email}</span>
        </>
      ),
    },
    { key: 'email', header: 'Email', cell: (u) => <span className="break-all">{u.email}</span>, hideOnMobile: true },
    {
      key: 'phone',
      header: 'Phone',
      cell: (u) => <span className="whitespace-nowrap">{u.phone ?? '—'}</span>,
      hideOnMobile: true,
    },
    { key: 'role', header: 'Role', cell: (u) => <Badge tone="blue">{roleLabel(u.role)}</Badge> },
    {
      key: 'status',
      header: 'Status',
      cell: (u) => {
        const inv = invitations.get(u.id);
        if (!inv) return <Badge status={u.is_active ? 'active' : 'inactive'} />;
        return inv.expired ? <Badge tone="red">Link expired</Badge> : <Badge tone="amber">Invited</Badge>;
      },
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
}

const FILTERS: ListFilter[] = [
  { key: 'role', label: 'Role', options: ROLE_FILTER_OPTIONS },
  { key: 'status', label: 'Status', options: STATUS_OPTIONS },
];

/** The spec's Users screen, made real: figures, table, activity and permissions all from the server. */
export default function UsersPage() {
  const screen = useScreen();
  return (
    <RequirePermission permission="view_users" what="staff accounts" title={screen.title} subtitle={screen.subtitle}>
      <UsersScreen />
    </RequirePermission>
  );
}

function UsersScreen() {
  const me = useCurrentUser();
  const screen = useScreen();
  const list = usePagedList({ filters: FILTERS, pageSizes: [], defaultLimit: 0 });
  const chosen = list.values.role ?? '';
  const role = isRole(chosen) ? chosen : '';
  const status = list.values.status;

  // Every account (active and not) for the cards; the table asks the server with its filters.
  const everyone = useUsers({ include_inactive: true });
  const listed = useUsers({ search: list.search, role, include_inactive: status !== 'active' });
  const rows = useMemo(
    () => (status === 'inactive' ? listed.data?.filter((u) => !u.is_active) : listed.data),
    [listed.data, status],
  );
  const [adding, setAdding] = useState(false);
  const openInvitations = useOpenInvitations();
  const invitations = useMemo(
    () => new Map((openInvitations.data ?? []).map((i) => [i.user_id, i])),
    [openInvitations.data],
  );
  const columns = useMemo(() => columnsFor(invitations), [invitations]);
  const reissue = useReissueInvitationMutation();
  const withdraw = useWithdrawInvitationMutation();
  const [link, setLink] = useState<IssuedInvitation | null>(null);
  const [withdrawing, setWithdrawing] = useState<User | null>(null);
  const manages = can(me, 'manage_users');
  const rowActions: RowAction<User>[] = [
    {
      label: (u) => `New invitation link for ${fullName(u)}`,
      icon: <Link2 />,
      onClick: (u) => reissue.mutate(u, { onSuccess: setLink }),
      hidden: (u) => !manages || !invitations.has(u.id),
      disabled: () => reissue.isPending,
    },
    {
      label: (u) => `Withdraw invitation for ${fullName(u)}`,
      icon: <Link2Off />,
      onClick: setWithdrawing,
      hidden: (u) => !manages || !invitations.has(u.id),
      destructive: true,
    },
  ];

  const names = useMemo(() => new Map((everyone.data ?? []).map((u) => [String(u.id), fullName(u)])), [everyone.data]);

  const all = everyone.data;
  const active = all?.filter((u) => u.is_active).length;
  const cards = [
    { label: 'Total Users', value: all?.length, hint: 'all staff accounts', icon: <Users /> },
    { label: 'Active Users', value: active, hint: 'can sign in', icon: <UserCheck /> },
    {
      label: 'Inactive Users',
      value: all && active !== undefined ? all.length - active : undefined,
      hint: 'deactivated',
      icon: <UserX />,
    },
    {
      label: 'Doctors',
      value: all?.filter((u) => u.is_active && u.role === 'doctor').length,
      hint: 'active, doctor role',
      icon: <Stethoscope />,
    },
  ];

  // Only users who may read the audit trail see the activity panel (no 403 panel in its place).
  const showActivity = can(me, 'view_audit');
  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle={screen.subtitle}
        actions={
          can(me, 'manage_users') && (
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

      <div className="grid gap-5 2xl:grid-cols-3">
        <Card className={showActivity ? 'min-w-0 2xl:col-span-2' : 'min-w-0 2xl:col-span-3'}>
          <FilteredTable
            list={list}
            rows={rows}
            loading={listed.isPending}
            error={listed.error}
            onRetry={() => void listed.refetch()}
            columns={columns}
            rowActions={manages ? rowActions : undefined}
            getRowId={(u) => u.id}
            caption="Users"
            itemLabel="users"
            search={{
              placeholder: 'Search by name, email or specialization...',
              label: 'Search by name, email or specialization...',
            }}
            empty={{ title: 'No users found', filteredHint: 'Try adjusting your search or filter criteria.' }}
          />
        </Card>
        {showActivity && (
          <div className="min-w-0">
            <RecentUserActivity nameOf={(id) => (id ? (names.get(id) ?? null) : null)} />
          </div>
        )}
        <div className="min-w-0 2xl:col-span-3">
          <RolePermissionsPanel />
        </div>
      </div>

      <UserFormDialog open={adding} onOpenChange={setAdding} user={null} />
      <Dialog
        open={link !== null}
        onOpenChange={(o) => !o && setLink(null)}
        size="lg"
        title={link ? `New invitation link: ${link.email}` : 'New invitation link'}
        description="The earlier link no longer works."
        footer={<Button onClick={() => setLink(null)}>Done</Button>}
      >
        {link && <InvitationLink path={link.path} email={link.email} expiresAt={link.expires_at} />}
      </Dialog>
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
    </>
  );
}
