import { useState } from 'react';
import { Download, Eye, GitMerge, Pencil, Plus, Trash2 } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { PATIENT_PAGE_SIZES, DEFAULT_PATIENT_PAGE_SIZE } from '@shared/constants';
import {
  patientColumns,
  Badge,
  Button,
  Card,
  clearFiltersEmpty,
  ConfirmDialog,
  ListTable,
  deleteMessage,
  ScreenHeader,
  type Column,
  type RowAction,
} from '@/components';
import { useCurrentUser } from '@/lib/session';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useDeletePatientMutation, usePatients } from '@/lib/patients/queries';
import { GENDER_FILTER_OPTIONS, MEMBERSHIP_FILTER_OPTIONS } from '@/lib/patients/options';
import { PatientDetailsDialog } from '../components/PatientDetailsDialog';
import { MergePatientDialog } from '../components/MergePatientDialog';
import { AddPatientDialog, EditPatientDialog } from '../components/PatientFormDialogs';
import { useExportPatients } from '../components/useExportPatients';
import { serverSearchText } from '@/lib/patients/searchRules';

const FILTERS: ListFilter[] = [
  { key: 'gender', label: 'Gender', options: GENDER_FILTER_OPTIONS },
  { key: 'membership', label: 'Membership', options: MEMBERSHIP_FILTER_OPTIONS },
];

const fullName = (p: Patient) => `${p.first_name} ${p.last_name}`;

/** All Patients (spec 2.9): filters in the URL, server-side paging, details/edit/add/delete dialogs, CSV export. */
export default function PatientsPage() {
  const user = useCurrentUser();
  const canManage = user.permissions.includes('manage_patients');
  const canMerge = user.permissions.includes('merge_patients');
  const list = usePagedList({
    filters: FILTERS,
    pageSizes: PATIENT_PAGE_SIZES,
    defaultLimit: DEFAULT_PATIENT_PAGE_SIZE,
  });
  // A phone number typed as "98450 77123" is searched as one number, the way the server indexes phones.
  const filters = {
    search: serverSearchText(list.search, 'all'),
    gender: list.values.gender!,
    membership: list.values.membership!,
  };
  const patients = usePatients({ ...filters, page: list.page, limit: list.limit });

  const [viewing, setViewing] = useState<Patient | null>(null);
  const [editing, setEditing] = useState<Patient | null>(null);
  const [deleting, setDeleting] = useState<Patient | null>(null);
  const [adding, setAdding] = useState(false);
  const [merging, setMerging] = useState<Patient | null>(null);
  const remove = useDeletePatientMutation();
  const exporter = useExportPatients();

  const columns: Column<Patient>[] = [
    patientColumns.id,
    patientColumns.nameWithDetails,
    {
      key: 'age_gender',
      header: 'Age/Gender',
      cell: (p) => `${p.age_text ?? '—'} / ${p.gender ?? '—'}`,
      hideOnMobile: true,
      className: 'whitespace-nowrap',
    },
    { key: 'phone', header: 'Phone', cell: (p) => p.phone ?? '—', className: 'whitespace-nowrap' },
    patientColumns.email,
    patientColumns.membership,
    { key: 'status', header: 'Status', cell: (p) => <Badge status={p.status} />, hideOnMobile: true },
    patientColumns.registered,
  ];

  const actions: RowAction<Patient>[] = [
    { label: (p) => `View ${fullName(p)}`, icon: <Eye />, onClick: setViewing },
    { label: (p) => `Edit ${fullName(p)}`, icon: <Pencil />, onClick: setEditing, hidden: () => !canManage },
    {
      label: (p) => `Merge ${fullName(p)} into another record`,
      icon: <GitMerge />,
      onClick: setMerging,
      hidden: () => !canMerge,
    },
    {
      label: (p) => `Delete ${fullName(p)}`,
      icon: <Trash2 />,
      onClick: setDeleting,
      destructive: true,
      hidden: () => !canManage,
    },
  ];

  const empty = {
    title: 'No Patients Found',
    ...clearFiltersEmpty(list, 'No patients match your current filters'),
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
      <ScreenHeader
        actions={
          <>
            {user.permissions.includes('export_data') && (
              <Button
                variant="outline"
                onClick={() => void exporter.start(filters)}
                loading={exporter.busy}
                loadingText="Exporting..."
              >
                <Download />
                Export
              </Button>
            )}
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
        <ListTable
          list={list}
          query={patients}
          rows={(p) => p.patients}
          search={{ placeholder: 'Search by name, patient ID, phone or email', label: 'Search patients' }}
          caption="Patients"
          itemLabel="patients"
          columns={columns}
          getRowId={(p) => p.id}
          retryLabel="Retry Connection"
          empty={empty}
          rowActions={actions}
        />
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
        onMerge={
          canMerge
            ? (p) => {
                setViewing(null);
                setMerging(p);
              }
            : undefined
        }
      />
      {canMerge && (
        <MergePatientDialog
          key={merging?.id ?? 0}
          patient={merging}
          onOpenChange={(open) => !open && setMerging(null)}
        />
      )}
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
