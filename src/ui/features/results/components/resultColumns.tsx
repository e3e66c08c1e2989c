import type { AutoverifyDecision } from '@shared/schemas/autoverify';
import type { TestResult } from '@shared/schemas/results';
import { DateText, type Column } from '@/components';
import { AutoverifyNote } from './AutoverifyNote';
import { FlagBadge, PatientCell, ResultIdCell, ResultStatusBadge, ValueCell } from './cells';

/**
 * Result Entry table (spec): Result ID, Patient, Test Name, Sample ID, Result Value with unit,
 * Flag, Status, Created; under the value, what the autoverification rules last said of it.
 */
export const entryColumns = (decisions: Map<number, AutoverifyDecision> | undefined): Column<TestResult>[] => [
  { key: 'id', header: 'Result ID', cell: (r) => <ResultIdCell r={r} />, hideOnMobile: true },
  { key: 'patient', header: 'Patient', cell: (r) => <PatientCell r={r} /> },
  {
    key: 'test',
    header: 'Test Name',
    cell: (r) => (
      <span className="grid">
        <span>{r.test_name}</span>
        {r.amended && <span className="text-xs text-amber-800">Amended</span>}
      </span>
    ),
  },
  {
    key: 'sample',
    header: 'Sample ID',
    cell: (r) => <span className="font-mono text-xs">{r.sample_number}</span>,
    hideOnMobile: true,
  },
  {
    key: 'value',
    header: 'Result Value',
    cell: (r) => (
      <span className="grid">
        <ValueCell r={r} />
        <AutoverifyNote
          r={r}
          decision={r.id === null ? undefined : decisions?.get(r.id)}
          className="mt-0.5 max-w-64 min-w-44 sm:min-w-52"
        />
      </span>
    ),
  },
  { key: 'flag', header: 'Flag', cell: (r) => <FlagBadge flag={r.flag} /> },
  { key: 'status', header: 'Status', cell: (r) => <ResultStatusBadge r={r} />, hideOnMobile: true },
  { key: 'created', header: 'Created', cell: (r) => <DateText value={r.created_at} withTime />, hideOnMobile: true },
];
