import { ReportConsent } from '@/components/ReportConsent';
import type { ReactNode } from 'react';
import { GitMerge, Pencil } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { Badge, Button, DateText, Dialog, ErrorPanel } from '@/components';
import { usePatient } from '@/lib/patients/queries';
import { membershipLabel } from '@/lib/patients/options';

export interface PatientDetailsDialogProps {
  /** The row that was clicked; null closes the dialog. */
  patient: Patient | null;
  onOpenChange: (open: boolean) => void;
  /** Shown as an Edit button when given (All Patients); Patient Search only views. */
  onEdit?: (patient: Patient) => void;
  /** Shown as "Merge into…" when given (users with merge_patients). */
  onMerge?: (patient: Patient) => void;
}

/** wide: the whole row (addresses, notes); double: two columns (emails, which wrap badly when narrow). */
function Item({
  label,
  children,
  wide,
  double,
}: {
  label: string;
  children: ReactNode;
  wide?: boolean;
  double?: boolean;
}) {
  return (
    <div className={wide ? 'col-span-2 sm:col-span-3' : double ? 'col-span-2' : undefined}>
      <dt className="text-[12px] font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words whitespace-pre-line text-slate-900">{children}</dd>
    </div>
  );
}

const show = (v: string | number | null | undefined): ReactNode =>
  v === null || v === undefined || v === '' ? '—' : v;

/** A field shown as the record has it ('—' when empty): its label, its name, and its width. */
type Plain = readonly [label: string, key: PlainKey, width?: 'wide' | 'double'];
type PlainKey = {
  [K in keyof Patient]: Patient[K] extends string | number | null | undefined ? K : never;
}[keyof Patient];

const CONTACT: readonly Plain[] = [
  ['Phone', 'phone'],
  ['Email', 'email', 'double'],
  ['Address', 'address', 'wide'],
  ['City', 'city'],
  ['State', 'state'],
  ['Pincode', 'pincode'],
];
const EMERGENCY: readonly Plain[] = [
  ['Contact Name', 'emergency_contact'],
  ['Contact Number', 'emergency_phone'],
  ['Relationship', 'emergency_relation'],
];
const MEDICAL: readonly Plain[] = [
  ['Blood Group', 'blood_group'],
  ['Allergies', 'allergies', 'wide'],
  ['Medical History', 'medical_history', 'wide'],
];
const INSURANCE: readonly Plain[] = [
  ['Insurance Provider', 'insurance_provider'],
  ['Insurance Number', 'insurance_number'],
];

const plain = (p: Patient, fields: readonly Plain[]) =>
  fields.map(([label, key, width]) => (
    <Item key={key} label={label} wide={width === 'wide'} double={width === 'double'}>
      {show(p[key])}
    </Item>
  ));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h3 className="text-[13px] font-semibold tracking-wide text-primary-700 uppercase">{title}</h3>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3">{children}</dl>
    </section>
  );
}

/** Patient Details: every field of the record, fetched fresh (GET /api/patients/{id}) behind the clicked row. */
export function PatientDetailsDialog({ patient, onOpenChange, onEdit, onMerge }: PatientDetailsDialogProps) {
  const query = usePatient(patient?.id ?? null, patient ?? undefined);
  const p = query.data ?? patient;
  const name = p ? `${p.first_name} ${p.last_name}` : '';
  return (
    <Dialog
      open={patient !== null}
      onOpenChange={onOpenChange}
      title="Patient Details"
      description={p ? `${name} · ${p.patient_id}` : undefined}
      size="lg"
      footer={
        <>
          {onMerge && p && (
            <Button variant="outline" onClick={() => onMerge(p)}>
              <GitMerge />
              Merge into…
            </Button>
          )}
          {onEdit && p && (
            <Button variant="outline" onClick={() => onEdit(p)}>
              <Pencil />
              Edit
            </Button>
          )}
          <Button onClick={() => onOpenChange(false)}>Close</Button>
        </>
      }
    >
      {query.isError && <ErrorPanel title="Could not refresh this patient" error={query.error} className="mb-4" />}
      {p && (
        <div className="grid gap-5">
          <Section title="Personal">
            <Item label="Patient ID">
              <span className="font-mono">{p.patient_id}</span>
            </Item>
            <Item label="First Name">{p.first_name}</Item>
            <Item label="Last Name">{p.last_name}</Item>
            <Item label="Date of Birth">
              <DateText value={p.date_of_birth} />
              {p.dob_estimated && ' (approx., from age)'}
            </Item>
            <Item label="Age">{p.age_text ?? '—'}</Item>
            <Item label="Gender">{show(p.gender)}</Item>
            <Item label="Status">
              <Badge status={p.status} />
            </Item>
            <Item label="Registered">
              <DateText value={p.created_at} withTime />
            </Item>
          </Section>
          <Section title="Contact">{plain(p, CONTACT)}</Section>
          <Section title="Emergency Contact">{plain(p, EMERGENCY)}</Section>
          <Section title="Medical">{plain(p, MEDICAL)}</Section>
          <Section title="Insurance & Membership">
            {plain(p, INSURANCE)}
            <Item label="Membership">{membershipLabel(p.membership_type)}</Item>
            <Item label="Last Updated">
              <DateText value={p.updated_at} withTime />
            </Item>
          </Section>
          <ReportConsent patientId={p.id} />
        </div>
      )}
    </Dialog>
  );
}
