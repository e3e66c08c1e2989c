import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Eye, MousePointerClick, Users } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { DEFAULT_PATIENT_PAGE_SIZE, PATIENT_PAGE_SIZES } from '@shared/constants';
import {
  patientColumns,
  Button,
  Card,
  DateText,
  Dialog,
  LinkButton,
  ListTable,
  ScreenHeader,
  type Column,
} from '@/components';
import { usePagedList } from '@/lib/usePagedList';
import { formatCount } from '@/lib/format';
import { usePatients } from '@/lib/patients/queries';
import { serverSearchText } from '@/lib/patients/searchRules';
import { HISTORY_TABS, HistoryPanel, type HistoryTab } from '../components/HistoryPanel';

const EXTRA = { patient: 0, tab: 'overview' };

const fullName = (p: Patient) => `${p.first_name} ${p.last_name}`;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-[12px] font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** The patient's details, with Close and View Full History (spec 2.13). */
function PatientDialog({
  patient,
  onClose,
  onViewHistory,
}: {
  patient: Patient | null;
  onClose: () => void;
  onViewHistory: (p: Patient) => void;
}) {
  const p = patient;
  return (
    <Dialog
      open={p !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Patient Details"
      description={p ? `${fullName(p)} · ${p.patient_id}` : undefined}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => p && onViewHistory(p)}>View Full History</Button>
        </>
      }
    >
      {p && (
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm">
          <Field label="Patient ID">
            <span className="font-mono">{p.patient_id}</span>
          </Field>
          <Field label="Name">{fullName(p)}</Field>
          <Field label="Date of Birth">
            <DateText value={p.date_of_birth} />
            {p.dob_estimated && ' (approx., from age)'}
          </Field>
          <Field label="Age / Gender">
            {p.age_text ?? '—'} / {p.gender ?? '—'}
          </Field>
          <Field label="Phone">{p.phone ?? '—'}</Field>
          <Field label="Email">{p.email ?? '—'}</Field>
          <Field label="Blood Group">{p.blood_group ?? '—'}</Field>
          <Field label="Registered">
            <DateText value={p.created_at} />
          </Field>
          <div className="col-span-2">
            <Field label="Address">{[p.address, p.city, p.state, p.pincode].filter(Boolean).join(', ') || '—'}</Field>
          </div>
          <div className="col-span-2">
            <Field label="Allergies / Medical History">
              {[p.allergies, p.medical_history].filter(Boolean).join(' · ') || '—'}
            </Field>
          </div>
        </dl>
      )}
    </Dialog>
  );
}

/** Patient History (spec 2.13): find a patient, then their visits, results, samples, bills and totals. */
export default function PatientHistoryPage() {
  const list = usePagedList({ pageSizes: PATIENT_PAGE_SIZES, defaultLimit: DEFAULT_PATIENT_PAGE_SIZE, extra: EXTRA });
  const setQ = list.setState;
  const patients = usePatients({ search: serverSearchText(list.search, 'all'), page: list.page, limit: list.limit });
  const patientId = Number(list.state.patient);
  const selected = patientId > 0 ? patientId : null;
  const rawTab = String(list.state.tab);
  const tab: HistoryTab = (HISTORY_TABS as readonly string[]).includes(rawTab) ? (rawTab as HistoryTab) : 'overview';
  const [viewing, setViewing] = useState<Patient | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [scrollTo, setScrollTo] = useState(0);

  // Bring the Medical History card into view when a patient is chosen (it sits below the list).
  useEffect(() => {
    if (scrollTo && panel.current) {
      panel.current.scrollIntoView({ behavior: 'smooth', block: 'start' });
      panel.current.focus({ preventScroll: true });
    }
  }, [scrollTo]);

  const select = (p: Patient) => {
    setQ({ patient: p.id, tab: 'overview' });
    setScrollTo((n) => n + 1);
  };

  const columns: Column<Patient>[] = [
    patientColumns.id,
    patientColumns.nameWithDetails,
    { key: 'age', header: 'Age', cell: (p) => p.age_text ?? '—', hideOnMobile: true },
    { key: 'gender', header: 'Gender', cell: (p) => p.gender ?? '—', hideOnMobile: true },
    { key: 'phone', header: 'Phone', cell: (p) => p.phone ?? '—', className: 'whitespace-nowrap', hideOnMobile: true },
    { key: 'email', header: 'Email', cell: (p) => p.email ?? '—', hideOnMobile: true, className: 'break-all' },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (p) => (
        <div className="flex justify-end gap-1.5">
          <Button
            size="sm"
            variant={selected === p.id ? 'primary' : 'outline'}
            aria-label={`Select ${fullName(p)}`}
            aria-pressed={selected === p.id}
            onClick={() => select(p)}
          >
            <MousePointerClick />
            Select
          </Button>
          <Button size="sm" variant="ghost" aria-label={`View details of ${fullName(p)}`} onClick={() => setViewing(p)}>
            <Eye />
            <span className="hidden sm:inline">View Details</span>
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <ScreenHeader
        subtitle="Visits, test results, samples and bills of each patient"
        actions={
          <LinkButton to="/patients" variant="outline">
            <Users />
            Manage Patients
          </LinkButton>
        }
      />

      <Card className="mb-5">
        <ListTable
          list={list}
          query={patients}
          rows={(p) => p.patients}
          columns={columns}
          getRowId={(p) => p.id}
          caption="Patients"
          itemLabel="patients"
          search={{ placeholder: 'Search by name, patient ID or phone number', label: 'Search patients' }}
          loadingText="Loading patient data..."
          retryLabel="Retry Connection"
          empty={{
            title: 'No patients found',
            hint: 'No patients have been registered yet',
            filteredHint: 'Try adjusting your search criteria',
          }}
        />
      </Card>

      {selected !== null ? (
        <HistoryPanel
          ref={panel}
          patientId={selected}
          tab={tab}
          onTabChange={(t) => setQ({ tab: t }, { replace: true })}
          onClose={() => setQ({ patient: 0, tab: 'overview' })}
        />
      ) : (
        patients.data &&
        patients.data.total > 0 && (
          <p className="text-center text-[13px] text-slate-600">
            Select one of the {formatCount(patients.data.total)} patients to see their medical history.
          </p>
        )
      )}

      <PatientDialog
        patient={viewing}
        onClose={() => setViewing(null)}
        onViewHistory={(p) => {
          setViewing(null);
          select(p);
        }}
      />
    </>
  );
}
