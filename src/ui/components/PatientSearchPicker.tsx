import type { Patient } from '@shared/schemas/patients';
import { errorMessage } from '@/lib/api';
import { formatCount } from '@/lib/format';
import { useDebounce } from '@/lib/useDebounce';
import { useSearchPatients } from '@/lib/patients/queries';
import { SearchPicker } from '@/components/SearchPicker';

const SEARCH_LIMIT = 10;

export interface PatientSearchPickerProps {
  /** The typed text; the caller keeps it, so it outlives the picker while a patient is shown. */
  query: string;
  onQueryChange: (query: string) => void;
  onSelect: (p: Patient) => void;
  error?: string;
  /** What an option shows after the name and patient code; null shows nothing. */
  facts: (p: Patient) => string | null;
  /** Added to `No patient matches "<query>"`, e.g. where to add one. */
  emptySuffix?: string;
  /** Say so when more patients match than the list shows. */
  countHint?: boolean;
  /** The field's label; "Patient" unless told. */
  label?: string;
}

/**
 * The required Patient field of a form: searched on the server (name, patient ID or phone) after a
 * 300 ms pause in typing, at most ten matches.
 */
export function PatientSearchPicker({
  query,
  onQueryChange,
  onSelect,
  error,
  facts,
  emptySuffix = '',
  countHint,
  label = 'Patient',
}: PatientSearchPickerProps) {
  const search = useDebounce(query.trim(), 300);
  const results = useSearchPatients({ page: 1, limit: SEARCH_LIMIT, search }, search !== '');
  // While the debounce waits, the old matches would be for another query.
  const settled = search === query.trim();
  return (
    <SearchPicker
      label={label}
      required
      placeholder="Search by name, patient ID or phone..."
      query={query}
      onQueryChange={onQueryChange}
      options={settled ? results.data?.patients : undefined}
      getKey={(p) => p.id}
      loading={!settled || results.isFetching}
      loadingText="Searching patients..."
      loadError={results.isError ? `Could not search patients: ${errorMessage(results.error)}` : undefined}
      emptyText={`No patient matches "${query.trim()}"${emptySuffix}`}
      error={error}
      hint={
        countHint && results.data && settled && results.data.total > SEARCH_LIMIT
          ? `Showing ${SEARCH_LIMIT} of ${formatCount(results.data.total)} matches: type more to narrow`
          : undefined
      }
      onSelect={(p) => {
        onSelect(p);
        onQueryChange('');
      }}
      renderOption={(p) => {
        const shown = facts(p);
        return (
          <span className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium">
              {p.first_name} {p.last_name}
            </span>
            <span className="font-mono text-xs text-slate-500">{p.patient_id}</span>
            {shown !== null && <span className="text-[13px] text-slate-600">{shown}</span>}
          </span>
        );
      }}
    />
  );
}
