import type { ReactNode } from 'react';
import type { ResultSheetRow, TestResult } from '@shared/schemas/results';
import { Badge, FormField, Input } from '@/components';

/** What every row of a result sheet (a plain value or a structured test) is drawn with. */

/** The test's name and code, with what the row shows beside them (its range, its flag). */
export function RowTitle({ row, aside }: { row: ResultSheetRow; aside: ReactNode }) {
  return (
    <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
      <p className="text-sm font-semibold text-slate-900">
        {row.test_name} <span className="font-mono text-xs font-normal text-slate-500">{row.test_code}</span>
      </p>
      {aside}
    </div>
  );
}

/** The row's notes: saved with its result. */
export function RowNotes({
  value,
  disabled,
  onChange,
  className,
}: {
  value: string;
  disabled: boolean;
  onChange: (notes: string) => void;
  className: string;
}) {
  return (
    <FormField label="Notes" className={className}>
      <Input value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} autoComplete="off" />
    </FormField>
  );
}

/**
 * Under the row, once it has a result: its status (and `children`, the marks the row adds), then
 * who verified it, or else who entered it.
 */
export function RowStatus({
  r,
  verifiedLine,
  children,
}: {
  r: TestResult | null;
  verifiedLine: string | null;
  children?: ReactNode;
}) {
  if (!r && !verifiedLine) return null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
      {r && <Badge status={r.status} />}
      {children}
      {verifiedLine ?? (r?.technician_name ? `Entered by ${r.technician_name}` : null)}
    </p>
  );
}
