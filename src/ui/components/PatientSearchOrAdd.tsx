import { useState, type ReactNode } from 'react';
import { UserPlus } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { useCurrentUser } from '@/lib/session';
import { Button } from './Button';
import { PatientSearchPicker } from './PatientSearchPicker';

export interface PatientSearchOrAddProps {
  onSelect: (p: Patient) => void;
  error?: string;
  facts: (p: Patient) => string | null;
  /** The new patient's form is open (shown under the search). */
  adding: boolean;
  onAddingChange: (adding: boolean) => void;
  /** The new patient's form: what saving it means is the caller's. */
  addForm: ReactNode;
  /** Where to register a patient, for those who may not here ("register the patient on Patients first"). */
  elsewhere?: string;
  countHint?: boolean;
}

/**
 * A form's Patient: a registered patient found by search, or Add New Patient under it for those who
 * may register patients (manage_patients); the others are told where to.
 */
export function PatientSearchOrAdd({
  onSelect,
  error,
  facts,
  adding,
  onAddingChange,
  addForm,
  elsewhere,
  countHint,
}: PatientSearchOrAddProps) {
  const canAdd = useCurrentUser().permissions.includes('manage_patients');
  const [query, setQuery] = useState('');
  return (
    <div className="grid gap-3">
      <PatientSearchPicker
        query={query}
        onQueryChange={setQuery}
        onSelect={onSelect}
        error={error}
        facts={facts}
        emptySuffix={canAdd ? ': use Add New Patient' : elsewhere ? `: ${elsewhere}` : ''}
        countHint={countHint}
      />
      {canAdd &&
        (adding ? (
          addForm
        ) : (
          <div>
            <Button size="sm" variant="outline" onClick={() => onAddingChange(true)}>
              <UserPlus aria-hidden="true" />
              Add New Patient
            </Button>
          </div>
        ))}
    </div>
  );
}
