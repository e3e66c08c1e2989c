import { useEffect, useState } from 'react';
import { Download, Eye, Pencil, Plus, Trash2 } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { GENDERS, MEMBERSHIP_TYPES, PATIENT_PAGE_SIZES, DEFAULT_PATIENT_PAGE_SIZE } from '@shared/constants';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  DataTable,
  DateText,
  FilterBar,
  PageHeader,
  Pagination,
  deleteMessage,
  type Column,
  type RowAction,
} from '@/components';
import { SCREENS } from '@/app/screens';
import { useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { useDeletePatientMutation, usePatients } from '../api';
import { GENDER_FILTER_OPTIONS, MEMBERSHIP_FILTER_OPTIONS, membershipLabel } from '../options';
import { PatientDetailsDialog } from '../components/PatientDetailsDialog';
import { AddPatientDialog, EditPatientDialog } from '../components/PatientFormDialogs';
import { useExportPatients } from '../components/useExportPatients';
import { serverSearchText } from '../searchRules';

const DEFAULTS = { search: '', gender: 'all', membership: 'all', page: 1, limit: DEFAULT_PATIENT_PAGE_SIZE };

/** A value from the address bar, if it is one the screen offers; else the default. */
function oneOf(value: string, allowed: readonly string[], fallback: string): string {
  return allowed.includes(value) ? value : fallback;
}

const fullName = (p: Patient) => `${p.first_name} ${p.last_name}`;

/** All Patients (spec 2.9): filters in the URL, server-side paging, details/edit/add/delete dialogs, CSV export. */
export default function PatientsPage() {
  const user = useCurrentUser();
  const canManage = user.permissions.includes('manage_patients');
  const [q, setQ, resetQ, isActive] = useUrlState(DEFAULTS);
  const gender = oneOf(q.gender, GENDERS, 'all');
  const membership = oneOf(q.membership, MEMBERSHIP_TYPES, 'all');
  const limit = (PATIENT_PAGE_SIZES as readonly number[]).includes(q.limit) ? q.limit : DEFAULT_PATIENT_PAGE_SIZE;
  const page = Math.max(1, Math.trunc(q.page));
  // A phone number typed as "98450 77123" is searched as one number, the way the server indexes phones.
  const filters = { search: serverSearchText(q.search, 'all'), gender, membership };
  const list = usePatients({ ...filters, page, limit });
  const filtersActive = isActive('search', 'gender', 'membership');

  const [viewing, setViewing] = useState<Patient | null>(null);
  const [editing, setEditing] = useState<Patient | null>(null);
  const [deleting, setDeleting] = useState<Patient | null>(null);
  const [adding, setAdding] = useState(false);
  const remove = useDeletePatientMutation();
  const exporter = useExportPatients();

  // After a delete (or a stale bookmark) the page can lie past the end: go to the last page there is.
  const totalPages = list.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setQ({ page: totalPages }, { replace: true });
  }, [page, totalPages, setQ]);

  const columns: Column<Patient>[] = [
    {
      key: 'patient_id',
      header: 'Patient ID',
      cell: (p) => <span className="font-mono text-[13px]">{p.patient_id}</span>,
      hideOnMobile: true,
    },
    {
      key: 'name',
      header: 'Name',
      cell: (p) => (
        <div className="min-w-0">
          <div className="font-medium text-slate-900">{fullName(p)}</div>
          {/* On phones the ID and age columns are hidden: show them under the name. */}
          <div className="font-mono text-xs text-slate-500 md:hidden">
            {p.patient_id} · {p.age ?? '—'}y{p.gender ? ` · ${p.gender}` : ''}
          </div>
        </div>
      ),
    },
    {
      key: 'age_gender',
      header: 'Age/Gender',
      cell: (p) => `${p.age ?? '—'} / ${p.gender ?? '—'}`,
      hideOnMobile: true,
      className: 'whitespace-nowrap',
    },
    { key: 'phone', header: 'Phone', cell: (p) => p.phone ?? '—', className: 'whitespace-nowrap' },
    { key: 'email', header: 'Email', cell: (p) => p.email ?? '—', hideOnMobile: true, className: 'break-all' },
    {
      key: 'membership',
      header: 'Membership',
      cell: (p) => (
        <Badge tone={p.membership_type === 'none' ? 'grey' : 'blue'}>{membershipLabel(p.membership_type)}</Badge>
      ),
      hideOnMobile: true,
    },
    { key: 'status', header: 'Status', cell: (p) => <Badge status={p.status} />, hideOnMobile: true },
    { key: 'created_at', header: 'Registered', cell: (p) => <DateText value={p.created_at} />, hideOnMobile: true },
  ];

  const actions: RowAction<Patient>[] = [
    { label: (p) => `View ${fullName(p)}`, icon: <Eye />, onClick: setViewing },
    { label: (p) => `Edit ${fullName(p)}`, icon: <Pencil />, onClick: setEditing, hidden: () => !canManage },
    {
      label: (p) => `Delete ${fullName(p)}`,
      icon: <Trash2 />,
      onClick: setDeleting,
      destructive: true,
      hidden: () => !canManage,
    },
  ];

  const clearFilters = () => resetQ();
  const empty = filtersActive
    ? {
        title: 'No Patients Found',
        hint: 'No patients match your current filters',
        action: (
          <Button variant="outline" onClick={clearFilters}>
            Clear Filters
          </Button>
        ),
      }
    : {
        title: 'No Patients Found',
        hint: canManage
          ? 'No patients have been registered yet. Add the first patient to get started.'
          : 'No patients have been registered yet.',
        action: canManage ? (
          <Button onClick={() => setAdding(true)}>
            <Plus />
            Add Patient
          </Button>
        ) : undefined,
      };

  return (
    <>
      <PageHeader
        title={SCREENS['/patients'].title}
        subtitle={SCREENS['/patients'].subtitle}
        actions={
          <>
            <Button
              variant="outline"
              onClick={() => void exporter.start(filters)}
              loading={exporter.busy}
              loadingText="Exporting..."
            >
              <Download />
              Export
            </Button>
            {canManage && (
              <Button onClick={() => setAdding(true)}>
                <Plus />
                Add Patient
              </Button>
            )}
          </>
        }
      />

      <Card>
        <div className="border-b border-slate-100 p-3">
          <FilterBar
            search={q.search}
            onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
            searchPlaceholder="Search by name, patient ID, phone or email"
            searchLabel="Search patients"
            selects={[
              { key: 'gender', label: 'Gender', value: gender, options: GENDER_FILTER_OPTIONS },
              { key: 'membership', label: 'Membership', value: membership, options: MEMBERSHIP_FILTER_OPTIONS },
            ]}
            onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
            active={filtersActive}
            onClear={clearFilters}
          />
        </div>
        <DataTable
          caption="Patients"
          columns={columns}
          rows={list.data?.patients}
          getRowId={(p) => p.id}
          loading={list.isPending}
          skeletonRows={Math.min(limit, 10)}
          error={list.isError ? list.error : undefined}
          onRetry={() => void list.refetch()}
          retryLabel="Retry Connection"
          empty={empty}
          rowActions={actions}
          className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
        />
        {list.data && list.data.total > 0 && !list.isError && (
          <Pagination
            className="border-t border-slate-100"
            page={page}
            totalPages={list.data.totalPages}
            total={list.data.total}
            pageSize={limit}
            pageSizes={PATIENT_PAGE_SIZES}
            onPageChange={(p) => setQ({ page: p })}
            onPageSizeChange={(size) => setQ({ limit: size, page: 1 })}
            itemLabel="patients"
          />
        )}
      </Card>

      <PatientDetailsDialog
        patient={viewing}
        onOpenChange={(open) => !open && setViewing(null)}
        onEdit={
          canManage
            ? (p) => {
                setViewing(null);
                setEditing(p);
              }
            : undefined
        }
      />
      {canManage && (
        <>
          <AddPatientDialog open={adding} onOpenChange={setAdding} />
          <EditPatientDialog patient={editing} onOpenChange={(open) => !open && setEditing(null)} />
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(open) => !open && setDeleting(null)}
            title="Delete Patient"
            message={deleting ? deleteMessage(`${fullName(deleting)} (${deleting.patient_id})`) : ''}
            busy={remove.isPending}
            onConfirm={() => {
              if (!deleting) return;
              // On failure the dialog stays open with the error toast, so the user can retry or cancel.
              remove.mutate(deleting, { onSuccess: () => setDeleting(null) });
            }}
          />
        </>
      )}
    </>
  );
}
