import { templateById } from '@shared/templates';
import { FlagBadge } from './cells';
import type { SheetRowProps } from './ResultSheetForm';
import { StructuredPanel } from './StructuredPanel';
import { StructuredCulture } from './StructuredCulture';
import { RowNotes, RowStatus, RowTitle } from './RowParts';

/** A structured test: its template's parameters (or culture and antibiogram), flagged as they are filled. */
export function StructuredRow({ row, draft, disabled, error, onChange, verifiedLine }: SheetRowProps) {
  const r = row.result;
  const template = templateById(row.result_template);
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <RowTitle row={row} aside={r && <FlagBadge flag={r.flag} />} />
      {r?.status === 'rejected' && (
        <p className="mb-2 text-[13px] text-red-800">
          Rejected ({r.rejection_reason ?? 'no reason given'}); earlier result {r.result_value}. Enter the repeat
          result.
        </p>
      )}
      {r && !r.structured && (
        <p className="mb-2 text-[13px] text-slate-700">
          Entered as text before this test was structured: {r.result_value}
        </p>
      )}
      {template?.kind === 'panel' && draft.panel && (
        <StructuredPanel
          template={template}
          draft={draft.panel}
          disabled={disabled}
          testName={row.test_name}
          onChange={(panel) => onChange({ panel })}
        />
      )}
      {template?.kind === 'culture' && draft.culture && (
        <StructuredCulture
          draft={draft.culture}
          disabled={disabled}
          testName={row.test_name}
          onChange={(culture) => onChange({ culture })}
        />
      )}
      {!template && <p className="text-[13px] text-red-800">This test has no known result template.</p>}
      <RowNotes value={draft.notes} disabled={disabled} onChange={(notes) => onChange({ notes })} className="mt-3" />
      {error && (
        <p role="alert" className="mt-2 text-[13px] text-red-700">
          {error}
        </p>
      )}
      <RowStatus r={r} verifiedLine={verifiedLine} />
    </li>
  );
}
