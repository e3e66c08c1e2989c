import { useState } from 'react';
import { UserRound } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { PatientSearchOrAdd } from '@/components/PatientSearchOrAdd';
import { ChosenCard } from '../../shared/ChosenCard';
import { AddPatientForm } from './AddPatientForm';

function facts(p: Patient): string {
  return [p.age_text, p.gender, p.phone].filter(Boolean).join(' · ');
}

export interface PatientPickerProps {
  value: Patient | null;
  onChange: (p: Patient | null) => void;
  error?: string;
}

/**
 * Spec 2.8 Patient Information: search the lab's patients through the server (name, patient code
 * or phone), or add a new one inline; the chosen patient is shown with a Change button.
 */
export function PatientPicker({ value, onChange, error }: PatientPickerProps) {
  const [adding, setAdding] = useState(false);

  if (value) {
    return (
      <ChosenCard icon={UserRound} changeLabel="Change patient" onChange={() => onChange(null)}>
        <p className="font-semibold text-slate-900" data-testid="selected-patient">
          {value.first_name} {value.last_name}
        </p>
        <p className="text-slate-600">
          <span className="font-mono">{value.patient_id}</span>
          {facts(value) && <> · {facts(value)}</>}
        </p>
      </ChosenCard>
    );
  }

  return (
    <PatientSearchOrAdd
      onSelect={onChange}
      error={error}
      facts={facts}
      countHint
      adding={adding}
      onAddingChange={setAdding}
      addForm={
        <AddPatientForm
          onCancel={() => setAdding(false)}
          onCreated={(p) => {
            setAdding(false);
            onChange(p);
          }}
        />
      }
    />
  );
}
