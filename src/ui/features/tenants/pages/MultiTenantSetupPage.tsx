import { useMemo, useState } from 'react';
import {
  Building2,
  CheckCircle2,
  HardDrive,
  Link2,
  PauseCircle,
  Pencil,
  PlayCircle,
  Plus,
  PowerOff,
} from 'lucide-react';
import {
  DEFAULT_TENANT_PAGE_SIZE,
  TENANT_PAGE_SIZES,
  TENANT_PLANS,
  TENANT_PLAN_LABELS,
  TENANT_STATUSES,
  TENANT_STATUS_LABELS,
  type IssuedInvitation,
  type Tenant,
  type TenantStatus,
} from '@shared/schemas/tenants';
import {
  Badge,
  Button,
  Card,
  clearFiltersEmpty,
  ConfirmDialog,
  DateText,
  ListTable,
  ScreenHeader,
  SummaryCards,
  type BadgeTone,
  type Column,
  type RowAction,
} from '@/components';
import { InvitationLinkDialog } from '@/components/InvitationLinkDialog';
import { formatCount } from '@/lib/format';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useReinviteMutation, useTenantPage, useTenantStatusMutation, useTenantSummary } from '../api';
import { TenantWizardDialog } from '../components/TenantWizardDialog';
import { TenantEditDialog } from '../components/TenantEditDialog';
import { TenantPanels } from '../components/TenantPanels';
import { formatBytes, labAddress, plural } from '../components/labAddress';

/** Green active, amber pending, red suspended, grey inactive (docs/ui.md's colours). */
const STATUS_TONES: Record<TenantStatus, BadgeTone> = {
  active: 'green',
  pending: 'amber',
  suspended: 'red',
  inactive: 'grey',
};

const FILTERS: ListFilter[] = [
  choiceFilter('status', 'Status', 'All Statuses', TENANT_STATUSES, TENANT_STATUS_LABELS),
  choiceFilter('plan', 'Plan', 'All Plans', TENANT_PLANS, TENANT_PLAN_LABELS),
];

const count = (n: number) => <span className="tabular-nums">{formatCount(n)}</span>;

const columns: Column<Tenant>[] = [
  {
    key: 'name',
    header: 'Tenant',
    cell: (t) => (
      <div className="min-w-0">
        <span className="block font-medium text-slate-900">
          {t.name}
          {t.is_primary && (
            <Badge tone="blue" className="ml-2 align-middle">
              Primary
            </Badge>
          )}
        </span>
        <span className="block text-[13px] break-all text-slate-600">{t.domain ?? 'no domain'}</span>
        {t.admin_email && (
          <span className="block text-[13px] break-all text-slate-600">
            {t.admin_email}
            {t.admin_pending ? ' · has not set a password yet' : ''}
          </span>
        )}
      </div>
    ),
  },
  { key: 'plan', header: 'Plan', cell: (t) => (t.plan ? TENANT_PLAN_LABELS[t.plan] : '—'), hideOnMobile: true },
  {
    key: 'status',
    header: 'Status',
    cell: (t) => <Badge tone={STATUS_TONES[t.status]}>{TENANT_STATUS_LABELS[t.status]}</Badge>,
  },
  { key: 'users', header: 'Users', align: 'right', cell: (t) => count(t.users), hideOnMobile: true },
  { key: 'patients', header: 'Patients', align: 'right', cell: (t) => count(t.patients), hideOnMobile: true },
  { key: 'tests', header: 'Tests', align: 'right', cell: (t) => count(t.tests), hideOnMobile: true },
  {
    key: 'storage',
    header: 'Storage',
    align: 'right',
    cell: (t) => <span className="whitespace-nowrap tabular-nums">{formatBytes(t.storage_bytes)}</span>,
    hideOnMobile: true,
  },
  { key: 'created', header: 'Created', cell: (t) => <DateText value={t.created_at} />, hideOnMobile: true },
  {
    key: 'activity',
    header: 'Last Activity',
    cell: (t) =>
      t.last_activity ? <DateText value={t.last_activity} withTime /> : <span className="text-slate-500">None</span>,
    hideOnMobile: true,
  },
];

type StatusChange = { tenant: Tenant; status: 'active' | 'suspended' | 'inactive' };

const CONFIRM: Record<StatusChange['status'], { title: string; label: string; text: (t: Tenant) => string }> = {
  suspended: {
    title: 'Suspend Tenant',
    label: 'Suspend',
    text: (t) =>
      `Suspend ${t.name}? Its staff are signed out at once and cannot sign in (they are told the lab's account is suspended) until you reactivate it. Its data stays as it is.`,
  },
  inactive: {
    title: 'Make Tenant Inactive',
    label: 'Make Inactive',
    text: (t) =>
      `Make ${t.name} inactive? Use this for a lab that has stopped using the server: its staff are signed out and cannot sign in. Its data is kept and it can be reactivated.`,
  },
  active: {
    title: 'Reactivate Tenant',
    label: 'Reactivate',
    text: (t) => `Reactivate ${t.name}? Its staff can sign in again with their passwords.`,
  },
};

/** Multi-Tenant Setup (spec 001): the labs on this server, for the server's superadmin. */
export default function MultiTenantSetupPage() {
  const summary = useTenantSummary();
  const list = usePagedList({ filters: FILTERS, pageSizes: TENANT_PAGE_SIZES, defaultLimit: DEFAULT_TENANT_PAGE_SIZE });
  const tenants = useTenantPage({ search: list.search, ...list.apiFilters, page: list.page, limit: list.limit });

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Tenant | null>(null);
  const [change, setChange] = useState<StatusChange | null>(null);
  const [link, setLink] = useState<{ tenant: Tenant; invitation: IssuedInvitation } | null>(null);
  const setStatus = useTenantStatusMutation();
  const reinvite = useReinviteMutation();

  const s = summary.data;
  const cards = useMemo(
    () => [
      {
        label: 'Total Tenants',
        value: s?.total,
        hint: s ? `${plural(s.users, 'user')}, ${plural(s.patients, 'patient')}` : 'labs on this server',
        icon: <Building2 />,
      },
      {
        label: 'Active',
        value: s?.active,
        hint: s ? `${formatCount(s.pending)} pending setup` : 'staff can sign in',
        icon: <CheckCircle2 />,
      },
      {
        label: 'Suspended',
        value: s ? s.suspended : undefined,
        hint: s ? `${formatCount(s.inactive)} inactive` : 'sign-in refused',
        icon: <PauseCircle />,
      },
      {
        label: 'Storage Used',
        value: s ? formatBytes(s.storage_bytes) : undefined,
        hint: s ? `${plural(s.tests, 'test')} performed` : 'all labs',
        icon: <HardDrive />,
      },
    ],
    [s],
  );

  const actions: RowAction<Tenant>[] = [
    { label: (t) => `Edit ${t.name}`, icon: <Pencil />, onClick: setEditing },
    {
      label: (t) => `New invitation link for ${t.name}`,
      icon: <Link2 />,
      onClick: (t) => reinvite.mutate(t, { onSuccess: (invitation) => setLink({ tenant: t, invitation }) }),
      hidden: (t) => !t.admin_pending || t.status === 'suspended' || t.status === 'inactive',
      disabled: () => reinvite.isPending,
    },
    {
      label: (t) => `Suspend ${t.name}`,
      icon: <PauseCircle />,
      onClick: (t) => setChange({ tenant: t, status: 'suspended' }),
      hidden: (t) => t.is_primary || t.status === 'suspended' || t.status === 'inactive',
      destructive: true,
    },
    {
      label: (t) => `Make ${t.name} inactive`,
      icon: <PowerOff />,
      onClick: (t) => setChange({ tenant: t, status: 'inactive' }),
      hidden: (t) => t.is_primary || t.status === 'inactive',
      destructive: true,
    },
    {
      label: (t) => `Reactivate ${t.name}`,
      icon: <PlayCircle />,
      onClick: (t) => setChange({ tenant: t, status: 'active' }),
      hidden: (t) => t.status !== 'suspended' && t.status !== 'inactive',
    },
  ];

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus />
      Create Tenant
    </Button>
  );

  return (
    <>
      <ScreenHeader actions={createButton} />
      <SummaryCards
        label="Tenant counts"
        loading={summary.isPending}
        error={summary.error}
        cards={cards.map((c) => ({
          ...c,
          value: summary.isError ? '—' : typeof c.value === 'string' ? c.value : formatCount(c.value ?? null),
        }))}
      />

      <Card className="min-w-0">
        <ListTable
          list={list}
          query={tenants}
          rows={(p) => p.tenants}
          search={{ placeholder: 'Search by lab name or domain', label: 'Search tenants' }}
          noun="Tenants"
          columns={columns}
          getRowId={(t) => t.id}
          empty={{
            title: 'No tenants found',
            ...clearFiltersEmpty(list),
            hint: 'Create a tenant for each lab that should share this server with its own data.',
            action: createButton,
          }}
          rowActions={actions}
        />
      </Card>

      {s && <TenantPanels summary={s} />}

      <TenantWizardDialog open={creating} onOpenChange={setCreating} />
      <TenantEditDialog tenant={editing} onOpenChange={(o) => !o && setEditing(null)} />
      <ConfirmDialog
        open={change !== null}
        onOpenChange={(o) => !o && setChange(null)}
        title={change ? CONFIRM[change.status].title : ''}
        message={change ? CONFIRM[change.status].text(change.tenant) : ''}
        confirmLabel={change ? CONFIRM[change.status].label : undefined}
        destructive={change?.status !== 'active'}
        busy={setStatus.isPending}
        onConfirm={() => {
          if (!change) return;
          setStatus.mutate(change, { onSuccess: () => setChange(null) });
        }}
      />
      <InvitationLinkDialog
        invitation={link?.invitation ?? null}
        title={link ? `New invitation link: ${link.tenant.name}` : 'New invitation link'}
        description="Earlier links for this admin no longer work."
        labAddress={link && labAddress(link.tenant.domain)}
        onClose={() => setLink(null)}
      />
    </>
  );
}
