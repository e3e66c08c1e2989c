import { useState } from 'react';
import { ArrowRight } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { DateText, FormDialog } from '@/components';
import { PatientSearchPicker } from '@/components/PatientSearchPicker';
import { useMergePatientMutation } from '@/lib/patients/queries';

const fullName = (p: Patient) => [p.title, p.first_name, p.last_name].filter(Boolean).join(' ');

function PatientCard({ label, patient }: { label: string; patient: Patient }) {
  return (
    <div className="min-w-0 flex-1 rounded-md border border-slate-200 px-3 py-2">
      <p className="text-[12px] font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <p className="font-medium text-slate-900">{fullName(patient)}</p>
      <p className="font-mono text-[13px] text-slate-700">{patient.patient_id}</p>
      <p className="text-[13px] text-slate-600">
        {[patient.age === null ? null : `${patient.age} yrs`, patient.gender, patient.phone]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <p className="text-[13px] text-slate-600">
        Registered <DateText value={patient.created_at} />
      </p>
    </div>
  );
}

export interface MergePatientDialogProps {
  /** The duplicate to merge away; null closes the dialog. */
  patient: Patient | null;
  onOpenChange: (open: boolean) => void;
}

/**
 * Merge into…: picks the patient to keep, shows both, and merges the duplicate into it
 * (POST /api/patients/{id}/merge). Needs merge_patients; the caller shows it only then, keyed by
 * the patient so each opening starts empty.
 */
export function MergePatientDialog({ patient, onOpenChange }: MergePatientDialogProps) {
  const merge = useMergePatientMutation();
  const [query, setQuery] = useState('');
  const [kept, setKept] = useState<Patient | null>(null);
  const [error, setError] = useState<string>();

  if (!patient) return null;
  const pick = (p: Patient) => {
    if (p.id === patient.id) {
      setError('Pick another patient: a record cannot be merged into itself');
      return;
    }
    setError(undefined);
    setKept(p);
  };
  const submit = () => {
    if (!kept) {
      setError('Search for the patient to keep, then pick them');
      return;
    }
    merge.mutate({ merged: patient, kept }, { onSuccess: () => onOpenChange(false) });
  };

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title="Merge Patient"
      description={`${fullName(patient)} (${patient.patient_id}) was registered twice? Pick the record to keep: every bill, sample, result, payment and portal access of ${patient.patient_id} moves to it, and ${patient.patient_id} still finds it. This cannot be undone.`}
      size="lg"
      busy={merge.isPending}
      submitLabel="Merge Patients"
      busyLabel="Merging..."
      submitVariant="destructive"
      onSubmit={submit}
    >
      <div className="grid gap-4">
        <PatientSearchPicker
          label="Patient to keep"
          query={query}
          onQueryChange={setQuery}
          onSelect={pick}
          error={error}
          facts={(p) => [p.age === null ? null : `${p.age} y`, p.phone].filter(Boolean).join(' · ') || null}
        />
        {kept && (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch" aria-label="Merge summary">
            <PatientCard label="Merge (goes away)" patient={patient} />
            <ArrowRight
              className="mx-auto size-5 shrink-0 rotate-90 self-center text-slate-500 sm:rotate-0"
              aria-hidden="true"
            />
            <PatientCard label="Into (kept)" patient={kept} />
          </div>
        )}
      </div>
    </FormDialog>
  );
}
