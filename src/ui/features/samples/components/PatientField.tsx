import { useState } from 'react';
import { UserRound } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { Button } from '@/components';
import { errorMessage } from '@/lib/api';
import { useDebounce } from '@/lib/useDebounce';
import { useSearchPatients } from '@/lib/patients/queries';
import { SearchPicker } from '@/components/SearchPicker';

const SEARCH_LIMIT = 10;

export interface PatientFieldProps {
  value: Patient | null;
  onChange: (p: Patient | null) => void;
  error?: string;
}

/** Collect dialog patient: searched on the server by name, patient ID or phone; shown with Change once chosen. */
export function PatientField({ value, onChange, error }: PatientFieldProps) {
  const [query, setQuery] = useState('');
  const search = useDebounce(query.trim(), 300);
  const results = useSearchPatients({ page: 1, limit: SEARCH_LIMIT, search }, search !== '');
  const settled = search === query.trim();

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
    <SearchPicker
      label="Patient"
      required
      placeholder="Search by name, patient ID or phone..."
      query={query}
      onQueryChange={setQuery}
      options={settled ? results.data?.patients : undefined}
      getKey={(p) => p.id}
      loading={!settled || results.isFetching}
      loadingText="Searching patients..."
      loadError={results.isError ? `Could not search patients: ${errorMessage(results.error)}` : undefined}
      emptyText={`No patient matches "${query.trim()}"`}
      error={error}
      onSelect={(p) => {
        onChange(p);
        setQuery('');
      }}
      renderOption={(p) => (
        <span className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-medium">
            {p.first_name} {p.last_name}
          </span>
          <span className="font-mono text-xs text-slate-500">{p.patient_id}</span>
          {p.age !== null && <span className="text-[13px] text-slate-600">{p.age} y</span>}
        </span>
      )}
    />
  );
}
