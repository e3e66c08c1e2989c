import { useState } from 'react';
import { UserPlus, UserRound } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { Button } from '@/components';
import { errorMessage } from '@/lib/api';
import { useDebounce } from '@/lib/useDebounce';
import { useCurrentUser } from '@/lib/session';
import { useSearchPatients } from '@/lib/patients/queries';
import { SearchPicker } from '@/components/SearchPicker';
import { AddPatientForm } from './AddPatientForm';

const SEARCH_LIMIT = 10;

function facts(p: Patient): string {
  return [p.age === null ? null : `${p.age} y`, p.gender, p.phone].filter(Boolean).join(' · ');
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
  const user = useCurrentUser();
  const canAdd = user.permissions.includes('manage_patients');
  const [query, setQuery] = useState('');
  const [adding, setAdding] = useState(false);
  const search = useDebounce(query.trim(), 300);
  const results = useSearchPatients({ page: 1, limit: SEARCH_LIMIT, search }, search !== '');
  // While the debounce waits, the old matches would be for another query.
  const settled = search === query.trim();

  if (value) {
    return (
      <div
        className="flex flex-wrap items-start gap-3 rounded-md border border-slate-200 bg-slate-50 p-3"
        aria-live="polite"
      >
        <UserRound className="mt-0.5 size-5 shrink-0 text-primary-600" aria-hidden="true" />
        <div className="min-w-0 flex-1 text-sm">
          <p className="font-semibold text-slate-900" data-testid="selected-patient">
            {value.first_name} {value.last_name}
          </p>
          <p className="text-slate-600">
            <span className="font-mono">{value.patient_id}</span>
            {facts(value) && <> · {facts(value)}</>}
          </p>
        </div>
        <Button size="sm" variant="outline" onClick={() => onChange(null)}>
          Change patient
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-3">
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
        emptyText={`No patient matches "${query.trim()}"${canAdd ? ': use Add New Patient' : ''}`}
        error={error}
        hint={
          results.data && settled && results.data.total > SEARCH_LIMIT
            ? `Showing ${SEARCH_LIMIT} of ${results.data.total} matches: type more to narrow`
            : undefined
        }
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
            <span className="text-[13px] text-slate-600">{facts(p)}</span>
          </span>
        )}
      />
      {canAdd &&
        (adding ? (
          <AddPatientForm
            onCancel={() => setAdding(false)}
            onCreated={(p) => {
              setAdding(false);
              onChange(p);
            }}
          />
        ) : (
          <div>
            <Button size="sm" variant="outline" onClick={() => setAdding(true)}>
              <UserPlus aria-hidden="true" />
              Add New Patient
            </Button>
          </div>
        ))}
    </div>
  );
}
