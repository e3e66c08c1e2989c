import { doctorTitledName } from '@shared/person-name';
import { useMemo } from 'react';
import { Activity, BadgeCheck, Power, Stethoscope, UserRound } from 'lucide-react';
import {
  DEFAULT_DOCTOR_PAGE_SIZE,
  DOCTOR_PAGE_SIZES,
  DOCTOR_STATUSES,
  DOCTOR_STATUS_LABELS,
  type Doctor,
  type DoctorStatus,
} from '@shared/schemas/doctors';
import {
  NameCell,
  Badge,
  Card,
  clearFiltersEmpty,
  ConfirmDialog,
  ScreenHeader,
  useRowDialogs,
  ListTable,
  Money,
  SummaryCards,
  deleteMessage,
  type BadgeTone,
  type Column,
  type RowAction,
} from '@/components';
import { formatCount } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { choiceFilter, choiceOptions, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useDeleteDoctorMutation, useDoctorPage, useDoctorStatusMutation, useDoctorSummary } from '../api';
import { DoctorFormDialog } from '../components/DoctorFormDialog';
import { DoctorAnalyticsPanels } from '../components/DoctorAnalyticsPanels';

const STATUS_OPTIONS = choiceOptions('All Statuses', DOCTOR_STATUSES, DOCTOR_STATUS_LABELS);

/** Green active, amber pending, red suspended, grey inactive (docs/ui.md's colours). */
const STATUS_TONES: Record<DoctorStatus, BadgeTone> = {
  active: 'green',
  pending: 'amber',
  suspended: 'red',
  inactive: 'grey',
};

const nameOf = (d: Doctor) => doctorTitledName(d);

const columns: Column<Doctor>[] = [
  {
    key: 'name',
    header: 'Doctor',
    cell: (d) => (
      <NameCell
        name={nameOf(d)}
        detail={d.qualification}
        phoneDetail={[d.specialization, d.phone].filter(Boolean).join(' · ')}
      />
    ),
  },
  {
    key: 'specialization',
    header: 'Specialization',
    cell: (d) => d.specialization ?? <span className="text-slate-500">—</span>,
    hideOnMobile: true,
  },
  {
    key: 'experience',
    header: 'Experience',
    cell: (d) => (d.experience_years === null ? '—' : `${d.experience_years} yr${d.experience_years === 1 ? '' : 's'}`),
    hideOnMobile: true,
    className: 'whitespace-nowrap',
  },
  {
    key: 'contact',
    header: 'Contact',
    cell: (d) => (
      <div className="min-w-0 text-[13px]">
        <span className="block whitespace-nowrap">{d.phone ?? '—'}</span>
        {d.email && <span className="block break-all text-slate-600">{d.email}</span>}
      </div>
    ),
    hideOnMobile: true,
  },
  {
    key: 'registration',
    header: 'Reg. No.',
    cell: (d) => <span className="whitespace-nowrap">{d.registration_number ?? '—'}</span>,
    hideOnMobile: true,
  },
  { key: 'fee', header: 'Fee', align: 'right', cell: (d) => <Money rupees={d.consultation_fee} /> },
  {
    key: 'referrals',
    header: 'Referrals',
    align: 'right',
    cell: (d) => <span className="tabular-nums">{formatCount(d.referrals)}</span>,
    hideOnMobile: true,
  },
  {
    key: 'sign_in',
    header: 'Sign-in',
    cell: (d) => (d.can_sign_in ? <Badge tone="blue">Signs in</Badge> : <Badge tone="grey">No sign-in</Badge>),
    hideOnMobile: true,
  },
  {
    key: 'status',
    header: 'Status',
    cell: (d) => <Badge tone={STATUS_TONES[d.status]}>{DOCTOR_STATUS_LABELS[d.status]}</Badge>,
  },
];

const EXTRA = { from: '', to: '' };

/** Doctor Management (spec 001): the lab's referring and consulting doctors, made real. */
export default function DoctorManagementPage() {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_users');
  const summary = useDoctorSummary();

  const filters: ListFilter[] = useMemo(
    () => [
      // The specializations in use come with the figures: one in the URL is kept until they do.
      {
        ...choiceFilter(
          'specialization',
          'Specialization',
          'All Specializations',
          summary.data?.specializations.map((s) => s.specialization) ?? [],
          (s) => s,
        ),
        open: true,
      },
      { key: 'status', label: 'Status', options: STATUS_OPTIONS },
    ],
    [summary.data],
  );
  const list = usePagedList({
    filters,
    pageSizes: DOCTOR_PAGE_SIZES,
    defaultLimit: DEFAULT_DOCTOR_PAGE_SIZE,
    extra: EXTRA,
  });
  const doctors = useDoctorPage({ search: list.search, ...list.apiFilters, page: list.page, limit: list.limit });

  const rows = useRowDialogs<Doctor>();
  const remove = useDeleteDoctorMutation();
  const setStatus = useDoctorStatusMutation();

  const s = summary.data;
  const cards = [
    {
      label: 'Total Doctors',
      value: s?.total,
      hint: s ? `${formatCount(s.can_sign_in)} can sign in` : 'all statuses',
      icon: <Stethoscope />,
    },
    {
      label: 'Active',
      value: s?.active,
      hint: s ? `${formatCount(s.total - s.active)} inactive, suspended or pending` : 'offered on bills',
      icon: <BadgeCheck />,
    },
    {
      label: 'Specializations',
      value: s?.specializations.length,
      hint: s?.specializations[0] ? `most: ${s.specializations[0].specialization}` : 'none recorded',
      icon: <UserRound />,
    },
    {
      label: 'Referrals This Month',
      value: s?.referrals_this_month,
      hint: 'bills naming a doctor, not cancelled',
      icon: <Activity />,
    },
  ];

  const actions: RowAction<Doctor>[] = [
    rows.editAction(nameOf, () => !canManage),
    {
      label: (d) => (d.status === 'active' ? `Deactivate ${nameOf(d)}` : `Activate ${nameOf(d)}`),
      icon: <Power />,
      onClick: (d) => setStatus.mutate({ doctor: d, status: d.status === 'active' ? 'inactive' : 'active' }),
      disabled: () => setStatus.isPending,
      hidden: () => !canManage,
    },
    rows.deleteAction(nameOf, () => !canManage),
  ];

  const addButton = canManage ? rows.addButton('Add Doctor') : undefined;

  return (
    <>
      <ScreenHeader actions={addButton} />
      <SummaryCards
        label="Doctor counts"
        loading={summary.isPending}
        error={summary.error}
        cards={cards.map((c) => ({ ...c, value: summary.isError ? '—' : formatCount(c.value ?? null) }))}
      />

      <Card className="min-w-0">
        <ListTable
          list={list}
          query={doctors}
          rows={(p) => p.doctors}
          search={{
            placeholder: 'Search by name, phone, email or reg. no.',
            label: 'Search doctors',
          }}
          noun="Doctors"
          columns={columns}
          getRowId={(d) => d.id}
          empty={{
            title: 'No doctors found',
            ...clearFiltersEmpty(list),
            hint: canManage
              ? 'Add the doctors who refer patients to the lab; they can then be chosen on bills.'
              : 'No doctors have been added yet.',
            action: addButton,
          }}
          rowActions={actions}
        />
      </Card>

      {can(me, 'view_bills') ? (
        <DoctorAnalyticsPanels
          from={String(list.state.from)}
          to={String(list.state.to)}
          onRangeChange={(r) => list.setState({ from: r.from, to: r.to })}
        />
      ) : (
        <p className="mt-5 text-[13px] text-slate-600">
          Referral figures (Top Performing Doctors, Doctor Analytics, Specialization Distribution) come from bills and
          need the view_bills permission.
        </p>
      )}

      {canManage && (
        <>
          <DoctorFormDialog {...rows.addDialog} doctor={null} />
          <DoctorFormDialog {...rows.editDialog} doctor={rows.editing} />
          <ConfirmDialog
            {...rows.confirm}
            title="Delete Doctor"
            message={
              rows.deleting
                ? `${deleteMessage(nameOf(rows.deleting))} A doctor named on any bill cannot be deleted: deactivate them instead.`
                : ''
            }
            busy={remove.isPending}
            // On failure (409: on bills) the dialog stays open with the error toast.
            onConfirm={() => rows.deleting && remove.mutate(rows.deleting, { onSuccess: rows.deleted })}
          />
        </>
      )}
    </>
  );
}
