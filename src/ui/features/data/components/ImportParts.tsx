import { Save, Trash2, CheckCircle2, XCircle } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, DataTable, FormField, Input, Select, type Column } from '@/components';
import type { DataJob, ImportCheck, RowErrorItem, TransferEntityInfo, Upload } from '@shared/schemas/data-jobs';
import { errorMessage } from '@/lib/api';
import { formatCount } from '@/lib/format';
import { useDeleteMapping, useMappings, useSaveMapping } from '../api';
import { JobStatus } from './jobParts';
import { ErrorGroups } from './ErrorGroups';

/** Which column of lims each header of the file goes to; null leaves it out. */
export type Mapping = Record<string, string | null>;

const errorColumns: Column<RowErrorItem & { i: number }>[] = [
  { key: 'row', header: 'Row', cell: (e) => <span className="tabular-nums">{formatCount(e.row)}</span> },
  { key: 'column', header: 'Column', cell: (e) => e.column ?? <span className="text-slate-500">whole row</span> },
  { key: 'message', header: 'Problem', cell: (e) => <span className="break-words">{e.message}</span> },
];

/**
 * The file's headers and the column each goes to, a saved mapping to start from, Check again,
 * and saving the mapping by name for the next file from the same system.
 */
export function MappingPanel({
  upload,
  entity,
  mapping,
  open,
  onChange,
  onChooseSaved,
  onCheck,
  checking,
  name,
  onNameChange,
}: {
  upload: Upload;
  entity: TransferEntityInfo | undefined;
  mapping: Mapping;
  /** Opened at once when the check complains about a column. */
  open: boolean;
  onChange: (mapping: Mapping) => void;
  onChooseSaved: (id: string) => void;
  onCheck: () => void;
  checking: boolean;
  name: string;
  onNameChange: (name: string) => void;
}) {
  const mappings = useMappings(entity?.name ?? '');
  const saveMapping = useSaveMapping();
  const deleteMapping = useDeleteMapping();
  const columnOptions = [
    { value: '', label: 'Leave out' },
    ...(entity?.columns ?? []).filter((c) => !c.read_only).map((c) => ({ value: c.name, label: c.name })),
  ];
  return (
    <details className="mt-4 rounded border border-slate-200" open={open}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-900">
        Column mapping ({upload.headers.length} columns)
      </summary>
      <div className="space-y-3 border-t border-slate-100 p-3">
        {(mappings.data?.length ?? 0) > 0 && (
          <div className="flex flex-wrap items-end gap-2">
            <FormField label="Saved mapping" className="min-w-48 flex-1">
              <Select
                placeholder="Choose a saved mapping"
                value=""
                onChange={(e) => onChooseSaved(e.target.value)}
                options={mappings.data!.map((m) => ({ value: String(m.id), label: m.name }))}
              />
            </FormField>
          </div>
        )}
        <div className="grid gap-2 sm:grid-cols-2">
          {upload.headers.map((h) => (
            <label key={h.header} className="flex items-center gap-2 text-[13px]">
              <span className="w-1/2 truncate text-slate-800" title={h.header}>
                {h.header}
              </span>
              <Select
                aria-label={`Column for ${h.header}`}
                className="w-1/2"
                value={mapping[h.header] ?? ''}
                onChange={(e) => onChange({ ...mapping, [h.header]: e.target.value || null })}
                options={columnOptions}
              />
            </label>
          ))}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Button
            variant="outline"
            disabled={checking}
            onClick={onCheck}
          >
            {checking ? 'Checking...' : 'Check again with this mapping'}
          </Button>
          <FormField label="Save mapping as" className="min-w-40 flex-1">
            <Input value={name} maxLength={80} onChange={(e) => onNameChange(e.target.value)} />
          </FormField>
          <Button
            variant="outline"
            disabled={!name.trim() || saveMapping.isPending || !entity}
            onClick={() => saveMapping.mutate({ entity: entity!.name as never, name: name.trim(), mapping })}
          >
            <Save />
            Save Mapping
          </Button>
          {mappings.data
            ?.filter((m) => m.name === name.trim())
            .map((m) => (
              <Button
                key={m.id}
                variant="ghost"
                aria-label={`Delete mapping ${m.name}`}
                onClick={() => deleteMapping.mutate(m.id)}
              >
                <Trash2 />
              </Button>
            ))}
        </div>
      </div>
    </details>
  );
}

/** What the check found: every row valid (and what importing would do), or the errors by kind and row. */
export function CheckOutcome({ check }: { check: ImportCheck }) {
  return (
    <div className="mt-4" aria-live="polite">
      {check.status === 'completed' ? (
        <p className="flex items-start gap-2 rounded border border-green-200 bg-green-50 p-3 text-[13px] text-green-900">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            Every {check.unit} is valid: {formatCount(check.rows)} {check.unit}s, {formatCount(check.inserted)} new
            and {formatCount(check.updated)} updated if imported. Nothing is stored until you import.
            {check.ignored_columns.length > 0 && ` Left out: ${check.ignored_columns.join(', ')}.`}
          </span>
        </p>
      ) : (
        <div className="rounded border border-red-200 bg-red-50 p-3 text-[13px] text-red-900">
          <p className="flex items-start gap-2 font-medium">
            <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
            {check.message
              ? check.message
              : `${formatCount(check.errors)} error${check.errors === 1 ? '' : 's'} in ${formatCount(check.rows)} ${check.unit}s. Fix them in the file and upload it again; nothing was stored.`}
          </p>
        </div>
      )}
      {check.first_errors.length > 0 && (
        <div className="mt-3">
          <ErrorGroups groups={check.error_groups} unit={check.unit} />
          <DataTable
            caption="Validation errors"
            columns={errorColumns}
            rows={check.first_errors.slice(0, 200).map((e, i) => ({ ...e, i }))}
            getRowId={(e) => e.i}
            empty={{ title: 'No errors' }}
          />
          {check.errors > 200 && (
            <p className="mt-1 text-[13px] text-slate-600">
              The first 200 are shown; View Errors in the history lists up to 1,000 and the full report all.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** The running or finished import: rows read, then what was stored or why nothing was. */
export function ImportProgress({ job }: { job: UseQueryResult<DataJob> }) {
  return (
    <div className="mt-4 rounded border border-slate-200 p-3 text-[13px]" aria-live="polite">
      {job.isError ? (
        <p className="text-red-700">{errorMessage(job.error)}</p>
      ) : !job.data ? (
        <p>Starting...</p>
      ) : (
        <div className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <span className="font-medium text-slate-900">{job.data.name}</span>
            <JobStatus job={job.data} />
          </div>
          {(job.data.status === 'in_progress' || job.data.status === 'pending') && (
            <p>
              {formatCount(job.data.processed)} rows read
              {job.data.percent !== null ? ` (${job.data.percent}% of the file)` : ''}...
            </p>
          )}
          {job.data.status === 'completed' && (
            <p className="text-green-800">
              Imported: {formatCount(job.data.inserted)} new, {formatCount(job.data.updated)} updated.
            </p>
          )}
          {(job.data.status === 'failed' || job.data.status === 'cancelled') && (
            <p className="text-red-800">
              {job.data.error_message ?? `${formatCount(job.data.errors)} errors`}; nothing was stored.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
