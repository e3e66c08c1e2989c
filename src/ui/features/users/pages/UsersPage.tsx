import { useMemo, useState } from 'react';
import { Stethoscope, UserCheck, UserPlus, UserX, Users } from 'lucide-react';
import type { User } from '@shared/schemas/users';
import {
  Badge,
  Button,
  Card,
  DataTable,
  DateText,
  FilterBar,
  PageHeader,
  SummaryCard,
  type Column,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { useUrlState } from '@/lib/useUrlState';
import { formatCount } from '@/lib/format';
import { fullName, useCurrentUser } from '@/lib/session';
import { NoAccess } from '@/components/NoAccess';
import { useUsers } from '../api';
import { can, isRole, ROLE_FILTER_OPTIONS, roleLabel } from '@/lib/roles';
import { UserFormDialog } from '../components/UserFormDialog';
import { RolePermissionsPanel } from '../components/RolePermissionsPanel';
import { RecentUserActivity } from '../components/RecentUserActivity';

const STATUS_OPTIONS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

const columns: Column<User>[] = [
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
  { key: 'status', header: 'Status', cell: (u) => <Badge status={u.is_active ? 'active' : 'inactive'} /> },
  {
    key: 'last_login',
    header: 'Last Login',
    cell: (u) =>
      u.last_login ? <DateText value={u.last_login} withTime /> : <span className="text-slate-500">Never</span>,
    hideOnMobile: true,
  },
  { key: 'created', header: 'Created', cell: (u) => <DateText value={u.created_at} />, hideOnMobile: true },
];

/** The spec's Users screen, made real: figures, table, activity and permissions all from the server. */
export default function UsersPage() {
  const me = useCurrentUser();
  const screen = useScreen();
  const [q, setQ, resetQ, isActive] = useUrlState({ search: '', role: 'all', status: 'all' });
  const role = isRole(q.role) ? q.role : '';
  const canView = can(me, 'view_users');

  // Every account (active and not) for the cards; the table asks the server with its filters.
  const everyone = useUsers({ include_inactive: true }, { enabled: canView });
  const listed = useUsers({ search: q.search, role, include_inactive: q.status !== 'active' }, { enabled: canView });
  const rows = useMemo(
    () => (q.status === 'inactive' ? listed.data?.filter((u) => !u.is_active) : listed.data),
    [listed.data, q.status],
  );
  const [adding, setAdding] = useState(false);

  const names = useMemo(() => new Map((everyone.data ?? []).map((u) => [String(u.id), fullName(u)])), [everyone.data]);

  if (!canView) {
    return (
      <>
        <PageHeader title={screen.title} subtitle={screen.subtitle} />
        <NoAccess what="staff accounts" permission="view_users" />
      </>
    );
  }

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

  const filtered = isActive('search', 'role', 'status');
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
      <section aria-label="User counts" className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {cards.map((c) => (
          <SummaryCard
            key={c.label}
            label={c.label}
            icon={c.icon}
            hint={c.hint}
            loading={everyone.isPending}
            value={everyone.isError ? '—' : formatCount(c.value ?? null)}
          />
        ))}
      </section>

      <div className="grid gap-5 2xl:grid-cols-3">
        <Card className={showActivity ? 'min-w-0 2xl:col-span-2' : 'min-w-0 2xl:col-span-3'}>
          <div className="border-b border-slate-100 p-3">
            <FilterBar
              search={q.search}
              onSearchChange={(search) => setQ({ search }, { replace: true })}
              searchPlaceholder="Search by name, email or specialization..."
              selects={[
                { key: 'role', label: 'Role', value: q.role, options: ROLE_FILTER_OPTIONS },
                { key: 'status', label: 'Status', value: q.status, options: STATUS_OPTIONS },
              ]}
              onSelectChange={(key, value) => setQ({ [key]: value })}
              active={filtered}
              onClear={resetQ}
            />
          </div>
          <DataTable
            caption="Users"
            columns={columns}
            rows={rows}
            getRowId={(u) => u.id}
            loading={listed.isPending}
            error={listed.error}
            onRetry={() => void listed.refetch()}
            retryLabel="Retry Connection"
            empty={{
              title: 'No users found',
              hint: filtered ? 'Try adjusting your search or filter criteria.' : undefined,
            }}
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
    </>
  );
}
