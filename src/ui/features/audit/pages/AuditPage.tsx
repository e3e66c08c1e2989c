import { useMemo, useState } from 'react';
import { Eye } from 'lucide-react';
import { AUDIT_ACTIONS } from '@shared/constants';
import type { AuditLog } from '@shared/schemas/audit';
import {
  Badge,
  Card,
  LIST_DATE_RANGE,
  LIST_DATE_RANGE_KEYS,
  ListDateRangeFields,
  listDateRange,
  DateText,
  FormField,
  Input,
  ListTable,
  RefreshButton,
  ScreenHeader,
  screenPermissionPage,
  type Column,
} from '@/components';
import { ApiError } from '@/lib/api';
import { humanize } from '@/lib/format';
import { fullName, useCurrentUser } from '@/lib/session';
import { choiceOptions, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { NoAccess } from '@/components/NoAccess';
import { useUsers } from '@/lib/users';
import { can } from '@/lib/roles';
import { useAuditLogs } from '../api';
import { actionTone, auditEntityName, KNOWN_ENTITIES } from '@/lib/audit';
import { actorName } from '@/lib/actor';
import { AuditChangesDialog } from '../components/AuditChangesDialog';

const AUDIT_PAGE_SIZES = [20, 50, 100];
const ACTION_OPTIONS = choiceOptions('All Actions', AUDIT_ACTIONS, humanize);

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

const AUDIT_EXTRA = { entity: '', ...LIST_DATE_RANGE };
const AUDIT_EXTRA_FILTERS = ['entity', ...LIST_DATE_RANGE_KEYS];

/** Audit Trail (/audit): the real, append-only trail with filters kept in the URL. */
export default screenPermissionPage('view_audit', 'the audit trail', AuditTrail);

function AuditTrail() {
  const me = useCurrentUser();
  const users = useUsers({ include_inactive: true }, { enabled: can(me, 'view_users') });
  const filters = useMemo<ListFilter[]>(
    () => [
      {
        key: 'user_id',
        label: 'User',
        open: true,
        options: [
          { value: 'all', label: 'All Users' },
          ...(users.data ?? []).map((u) => ({
            value: String(u.id),
            label: `${fullName(u)}${u.is_active ? '' : ' (inactive)'}`,
          })),
        ],
      },
      { key: 'action', label: 'Action', options: ACTION_OPTIONS },
    ],
    [users.data],
  );
  const list = usePagedList({
    filters,
    pageSizes: AUDIT_PAGE_SIZES,
    defaultLimit: 50,
    extra: AUDIT_EXTRA,
    extraFilters: AUDIT_EXTRA_FILTERS,
  });
  const entity = String(list.state.entity);
  const range = listDateRange(list);
  const logs = useAuditLogs(
    {
      user_id: list.values.user_id!,
      action: list.values.action!,
      entity,
      from: range.from,
      to: range.to,
      search: list.search,
      page: list.page,
      limit: list.limit,
    },
    !range.backwards,
  );
  const [open, setOpen] = useState<AuditLog | null>(null);
  const columns = useMemo(() => {
    const names = new Map((users.data ?? []).map((u) => [String(u.id), fullName(u)]));
    return auditColumns((id) => names.get(id));
  }, [users.data]);

  if (logs.error instanceof ApiError && logs.error.status === 403) {
    return (
      <>
        <ScreenHeader />
        <NoAccess what="the audit trail" permission="view_audit" serverMessage={logs.error.message} />
      </>
    );
  }

  return (
    <>
      <ScreenHeader actions={<RefreshButton query={logs} />} />
      <Card>
        <ListTable
          list={list}
          query={logs}
          rows={(p) => p.logs}
          columns={columns}
          getRowId={(l) => l.id}
          caption="Audit log"
          itemLabel="entries"
          search={{ placeholder: 'Search by user email, record id or new values...', label: 'Search the audit trail' }}
          errorTitle="Error Loading Audit Trail"
          onRowClick={setOpen}
          rowActions={[{ label: (l) => `View changes of entry ${l.id}`, icon: <Eye />, onClick: setOpen }]}
          invalid={range.invalid}
          empty={{
            title: 'No audit entries found',
            hint: 'Changes to lab data appear here as they happen.',
            filteredHint: 'Try adjusting your search or filter criteria.',
          }}
          filterRows={
            <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-start">
              <FormField label="Entity" className="col-span-2 sm:w-48">
                <Input
                  list="audit-entities"
                  placeholder="All entities"
                  value={entity}
                  onChange={(e) =>
                    list.setState({ entity: e.target.value.trim().toLowerCase(), page: 1 }, { replace: true })
                  }
                />
              </FormField>
              <datalist id="audit-entities">
                {KNOWN_ENTITIES.map((e) => (
                  <option key={e} value={e}>
                    {auditEntityName(e)}
                  </option>
                ))}
              </datalist>
              <ListDateRangeFields list={list} />
            </div>
          }
        />
      </Card>
      <p className="mt-3 text-[13px] text-slate-600">
        Dates are the lab&apos;s calendar days. Entries cannot be edited or deleted; each is chained to the one before
        it, so tampering shows up when the trail is verified (Debug Import System, or <code>lims audit verify</code>).
      </p>
      <AuditChangesDialog log={open} onClose={() => setOpen(null)} />
    </>
  );
}
