import { useState } from 'react';
import { History, LogOut, MonitorSmartphone } from 'lucide-react';
import type { ActiveSession, SignInEvent } from '@shared/schemas/user-admin';
import {
  Badge,
  BrowserName,
  Card,
  CardHeader,
  ConfirmDialog,
  DataTable,
  DateText,
  Pagination,
  Select,
  queryState,
  type Column,
  type RowAction,
} from '@/components';
import { roleLabel } from '@/lib/roles';
import { browserOf } from '@/lib/userAgent';
import { useActiveSessions, useEndSessionMutation, useSignIns, type SignInQuery } from '../api';

const Who = ({ name, email }: { name: string | null; email: string | null }) => (
  <>
    <span className="block font-medium text-slate-900">{name ?? email ?? '—'}</span>
    {name && email && <span className="block text-[13px] break-all text-slate-600">{email}</span>}
  </>
);

/**
 * The Activity Monitor: who is signed in now (manage_users, with End Session) and the sign-ins and
 * failed sign-ins of the audit trail (view_audit). Each part shows for the permission it needs.
 */
export function ActivityMonitor({ canManage, canAudit }: { canManage: boolean; canAudit: boolean }) {
  return (
    <div className="grid gap-5">
      {canManage && <ActiveSessions />}
      {canAudit && <SignInHistory />}
    </div>
  );
}

const sessionColumns: Column<ActiveSession>[] = [
  {
    key: 'user',
    header: 'User',
    cell: (s) => (
      <>
        <Who name={s.user_name} email={s.user_email} />
        {/* Phones have no room for the address and browser columns. */}
        <span className="block text-[13px] text-slate-600 md:hidden">
          {browserOf(s.user_agent)} · {s.ip_address ?? 'unknown address'}
        </span>
        {s.current && <Badge tone="blue">This session</Badge>}
      </>
    ),
  },
  { key: 'role', header: 'Role', cell: (s) => roleLabel(s.role), hideOnMobile: true },
  { key: 'started', header: 'Started', cell: (s) => <DateText value={s.started_at} withTime /> },
  { key: 'seen', header: 'Last Seen', cell: (s) => <DateText value={s.last_seen_at} withTime />, hideOnMobile: true },
  { key: 'ip', header: 'IP Address', cell: (s) => s.ip_address ?? '—', hideOnMobile: true },
  { key: 'browser', header: 'Browser', cell: (s) => <BrowserName ua={s.user_agent} />, hideOnMobile: true },
];

function ActiveSessions() {
  const sessions = useActiveSessions(true);
  const end = useEndSessionMutation();
  const [ending, setEnding] = useState<ActiveSession | null>(null);
  const actions: RowAction<ActiveSession>[] = [
    {
      label: (s) => `End session of ${s.user_name}`,
      icon: <LogOut />,
      destructive: true,
      onClick: setEnding,
      // Your own session ends with Sign out.
      hidden: (s) => s.current,
    },
  ];
  return (
    <Card>
      <CardHeader
        title="Active Sessions"
        icon={<MonitorSmartphone />}
        description="Signed in now: not signed out, not idle past the session timeout. End Session signs that device out at its next click."
      />
      <DataTable
        caption="Active sessions"
        columns={sessionColumns}
        rows={sessions.data}
        getRowId={(s) => s.id}
        {...queryState(sessions)}
        errorTitle="Could not load the sessions"
        rowActions={actions}
        empty={{ title: 'Nobody is signed in', hint: 'Sessions appear here when staff sign in.' }}
      />
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(o) => !o && setEnding(null)}
        title="End Session"
        message={
          ending &&
          `End the session of ${ending.user_name} (${browserOf(ending.user_agent)}, ${ending.ip_address ?? 'unknown address'})? They are signed out on that device and must sign in again.`
        }
        confirmLabel="End Session"
        busyLabel="Ending..."
        destructive
        busy={end.isPending}
        onConfirm={() => ending && end.mutate(ending, { onSettled: () => setEnding(null) })}
      />
    </Card>
  );
}

const OUTCOME_OPTIONS = [
  { value: 'all', label: 'All sign-ins' },
  { value: 'success', label: 'Successful' },
  { value: 'failed', label: 'Failed' },
];

/** Why a sign-in failed, as the audit trail records it, in words. */
const REASONS: Record<string, string> = {
  'bad password': 'Wrong password',
  inactive: 'Account deactivated',
  suspended: 'Account suspended',
  'no sign-in': 'Account has no password (may not sign in)',
};

const signInColumns: Column<SignInEvent>[] = [
  { key: 'time', header: 'Time', cell: (e) => <DateText value={e.created_at} withTime /> },
  { key: 'user', header: 'User', cell: (e) => <Who name={e.user_name} email={e.user_email} /> },
  {
    key: 'result',
    header: 'Result',
    cell: (e) => (
      <>
        <Badge status={e.status}>{e.status === 'success' ? 'Signed in' : 'Failed'}</Badge>
        {e.reason && <span className="mt-0.5 block text-[13px] text-slate-600">{REASONS[e.reason] ?? e.reason}</span>}
      </>
    ),
  },
  { key: 'ip', header: 'IP Address', cell: (e) => e.ip_address ?? '—', hideOnMobile: true },
  { key: 'browser', header: 'Browser', cell: (e) => <BrowserName ua={e.user_agent} />, hideOnMobile: true },
];

function SignInHistory() {
  const [query, setQuery] = useState<SignInQuery>({ page: 1, limit: 20 });
  const history = useSignIns(query, true);
  const data = history.data;
  return (
    <Card>
      <CardHeader
        title="Sign-in History"
        icon={<History />}
        description="Sign-ins and failed sign-ins from the audit trail, newest first."
        actions={
          <Select
            aria-label="Sign-in result"
            value={query.status ?? 'all'}
            onChange={(e) =>
              setQuery({
                page: 1,
                limit: query.limit,
                ...(e.target.value === 'all' ? {} : { status: e.target.value as 'success' | 'failed' }),
              })
            }
            options={OUTCOME_OPTIONS}
            className="w-40"
          />
        }
      />
      <DataTable
        caption="Sign-in history"
        columns={signInColumns}
        rows={data?.events}
        getRowId={(e) => e.id}
        {...queryState(history)}
        errorTitle="Could not load the sign-ins"
        empty={{
          title: 'No sign-ins found',
          hint: query.status ? 'Try the other filter.' : 'Sign-ins appear here as staff sign in.',
        }}
      />
      {data && data.total > 0 && (
        <Pagination
          page={data.currentPage}
          totalPages={data.totalPages}
          total={data.total}
          pageSize={query.limit}
          pageSizes={[10, 20, 50]}
          onPageChange={(page) => setQuery({ ...query, page })}
          onPageSizeChange={(limit) => setQuery({ ...query, limit, page: 1 })}
          itemLabel="sign-ins"
          className="border-t border-slate-100"
        />
      )}
    </Card>
  );
}
