import { useMemo, useState } from 'react';
import { Eye, RefreshCw } from 'lucide-react';
import { AUDIT_ACTIONS } from '@shared/constants';
import type { AuditLog } from '@shared/schemas/audit';
import {
  Badge,
  Button,
  Card,
  DataTable,
  DateText,
  FilterBar,
  FormField,
  Input,
  PageHeader,
  Pagination,
  type Column,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { ApiError } from '@/lib/api';
import { humanize } from '@/lib/format';
import { fullName, useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { NoAccess } from '@/components/NoAccess';
import { useUsers } from '@/lib/users';
import { can } from '@/lib/roles';
import { useAuditLogs } from '../api';
import { actionTone, auditEntityName, KNOWN_ENTITIES } from '@/lib/audit';
import { actorName } from '@/lib/actor';
import { AuditChangesDialog } from '../components/AuditChangesDialog';

const ACTION_OPTIONS = [
  { value: 'all', label: 'All Actions' },
  ...AUDIT_ACTIONS.map((a) => ({ value: a, label: humanize(a) })),
];

/** Columns; user records are named from the users list when it is available. */
function auditColumns(userName: (id: string) => string | undefined): Column<AuditLog>[] {
  return [
    {
      key: 'time',
      header: 'Timestamp',
      cell: (l) => (
        <>
          <DateText value={l.created_at} withTime />
          {/* Phones: the user goes under the time instead of in its own column. */}
          <span className="block text-[13px] break-words text-slate-600 md:hidden">{actorName(l)}</span>
        </>
      ),
    },
    {
      key: 'user',
      header: 'User',
      cell: (l) => <span className="break-words">{actorName(l)}</span>,
      hideOnMobile: true,
    },
    { key: 'action', header: 'Action', cell: (l) => <Badge tone={actionTone(l.action)}>{humanize(l.action)}</Badge> },
    {
      key: 'entity',
      header: 'Entity',
      cell: (l) => (
        <span className="whitespace-nowrap">
          {auditEntityName(l.entity)}
          {l.entity_id && <span className="text-slate-600"> #{l.entity_id}</span>}
          {l.subject ? (
            <span className="block max-w-xs truncate text-[13px] text-slate-600" title={l.subject}>
              {l.subject}
            </span>
          ) : (
            l.entity === 'user' &&
            l.entity_id &&
            userName(l.entity_id) && <span className="block text-[13px] text-slate-600">{userName(l.entity_id)}</span>
          )}
        </span>
      ),
    },
    { key: 'status', header: 'Status', cell: (l) => <Badge status={l.status} />, hideOnMobile: true },
    {
      key: 'ip',
      header: 'IP Address',
      cell: (l) => <span className="tabular-nums">{l.ip_address ?? '—'}</span>,
      hideOnMobile: true,
    },
  ];
}

/** Audit Trail (/audit): the real, append-only trail with filters kept in the URL. */
export default function AuditPage() {
  const me = useCurrentUser();
  const screen = useScreen();
  const allowed = can(me, 'view_audit');
  const [q, setQ, resetQ, isActive] = useUrlState({
    user_id: 'all',
    action: 'all',
    entity: '',
    from: '',
    to: '',
    search: '',
    page: 1,
    limit: 50,
  });
  const badRange = q.from !== '' && q.to !== '' && q.from > q.to;
  const logs = useAuditLogs(q, allowed && !badRange);
  const users = useUsers({ include_inactive: true }, { enabled: allowed && can(me, 'view_users') });
  const [open, setOpen] = useState<AuditLog | null>(null);
  const columns = useMemo(() => {
    const names = new Map((users.data ?? []).map((u) => [String(u.id), fullName(u)]));
    return auditColumns((id) => names.get(id));
  }, [users.data]);

  const forbidden = !allowed || (logs.error instanceof ApiError && logs.error.status === 403);
  if (forbidden) {
    return (
      <>
        <PageHeader title={screen.title} subtitle={screen.subtitle} />
        <NoAccess
          what="the audit trail"
          permission="view_audit"
          serverMessage={logs.error instanceof Error ? logs.error.message : undefined}
        />
      </>
    );
  }

  const userOptions = [
    { value: 'all', label: 'All Users' },
    ...(users.data ?? []).map((u) => ({
      value: String(u.id),
      label: `${fullName(u)}${u.is_active ? '' : ' (inactive)'}`,
    })),
  ];
  const filtered = isActive('user_id', 'action', 'entity', 'from', 'to', 'search');
  const data = logs.data;

  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle={screen.subtitle}
        actions={
          <Button
            variant="outline"
            onClick={() => void logs.refetch()}
            loading={logs.isFetching && !logs.isPending}
            loadingText="Refreshing..."
          >
            <RefreshCw />
            Refresh
          </Button>
        }
      />
      <Card>
        <div className="grid gap-3 border-b border-slate-100 p-3">
          <FilterBar
            search={q.search}
            onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
            searchPlaceholder="Search by user email, record id or new values..."
            selects={[
              { key: 'user_id', label: 'User', value: q.user_id, options: userOptions },
              { key: 'action', label: 'Action', value: q.action, options: ACTION_OPTIONS },
            ]}
            onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
            active={filtered}
            onClear={resetQ}
          />
          <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
            <FormField label="Entity" className="col-span-2 sm:w-48">
              <Input
                list="audit-entities"
                placeholder="All entities"
                value={q.entity}
                onChange={(e) => setQ({ entity: e.target.value.trim().toLowerCase(), page: 1 }, { replace: true })}
              />
            </FormField>
            <datalist id="audit-entities">
              {KNOWN_ENTITIES.map((e) => (
                <option key={e} value={e}>
                  {auditEntityName(e)}
                </option>
              ))}
            </datalist>
            <FormField label="From" className="sm:w-44" error={badRange ? 'From is after To' : undefined}>
              <Input
                type="date"
                value={q.from}
                max={q.to || undefined}
                onChange={(e) => setQ({ from: e.target.value, page: 1 })}
              />
            </FormField>
            <FormField label="To" className="sm:w-44">
              <Input
                type="date"
                value={q.to}
                min={q.from || undefined}
                onChange={(e) => setQ({ to: e.target.value, page: 1 })}
              />
            </FormField>
          </div>
        </div>
        <DataTable
          caption="Audit log"
          columns={columns}
          rows={badRange ? [] : data?.logs}
          getRowId={(l) => l.id}
          loading={logs.isPending && !badRange}
          error={logs.error}
          errorTitle="Error Loading Audit Trail"
          onRetry={() => void logs.refetch()}
          onRowClick={setOpen}
          rowActions={[{ label: (l) => `View changes of entry ${l.id}`, icon: <Eye />, onClick: setOpen }]}
          empty={{
            title: 'No audit entries found',
            hint: badRange
              ? 'The From date is after the To date.'
              : filtered
                ? 'Try adjusting your search or filter criteria.'
                : 'Changes to lab data appear here as they happen.',
          }}
        />
        {data && data.total > 0 && !badRange && (
          <Pagination
            page={data.currentPage}
            totalPages={data.totalPages}
            total={data.total}
            pageSize={q.limit}
            pageSizes={[20, 50, 100]}
            onPageChange={(page) => setQ({ page })}
            onPageSizeChange={(limit) => setQ({ limit, page: 1 })}
            itemLabel="entries"
            className="border-t border-slate-100"
          />
        )}
      </Card>
      <p className="mt-3 text-[13px] text-slate-600">
        Dates are the lab&apos;s calendar days. Entries cannot be edited or deleted; each is chained to the one before
        it, so tampering shows up when the trail is verified (Debug Import System, or <code>lims audit verify</code>).
      </p>
      <AuditChangesDialog log={open} onClose={() => setOpen(null)} />
    </>
  );
}
