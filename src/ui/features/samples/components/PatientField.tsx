import { useState } from 'react';
import { UserRound } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { Button } from '@/components';
import { PatientSearchPicker } from '@/components/PatientSearchPicker';

export interface PatientFieldProps {
  value: Patient | null;
  onChange: (p: Patient | null) => void;
  error?: string;
}

/** Collect dialog patient: searched on the server by name, patient ID or phone; shown with Change once chosen. */
export function PatientField({ value, onChange, error }: PatientFieldProps) {
  const [query, setQuery] = useState('');
  if (value) {
    return (
      <div className="grid gap-1.5">
        <p className="text-[13px] font-medium text-slate-800">Patient</p>
        <div
          className="flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-2.5"
          aria-live="polite"
        >
          <UserRound className="size-5 shrink-0 text-primary-600" aria-hidden="true" />
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-semibold text-slate-900" data-testid="selected-patient">
              {value.first_name} {value.last_name}
            </p>
            <p className="font-mono text-xs text-slate-600">{value.patient_id}</p>
          </div>
          <Button size="sm" variant="outline" onClick={() => onChange(null)}>
            Change
          </Button>
        </div>
      </div>
    );
  }

  return (
    <PatientSearchPicker
      query={query}
      onQueryChange={setQuery}
      onSelect={onChange}
      error={error}
      facts={(p) => p.age_text}
    />
  );
}
