import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { CheckCircle2, FileUp, Save, Trash2, XCircle } from 'lucide-react';
import {
  Button,
  Checkbox,
  DataTable,
  Dialog,
  FormField,
  Input,
  Select,
  type Column,
} from '@/components';
import type { ImportCheck, RowErrorItem, TransferEntityInfo, Upload } from '@shared/schemas/data-jobs';
import { errorMessage } from '@/lib/api';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { cn } from '@/lib/cn';
import {
  discardUpload,
  uploadForCheck,
  useCancelJob,
  useDeleteMapping,
  useInvalidateJobs,
  useJob,
  useMappings,
  useRecheck,
  useSaveMapping,
  useStartImport,
} from '../api';
import { JobStatus, formatBytes } from './jobParts';
import { ErrorGroups } from './ErrorGroups';

type Mapping = Record<string, string | null>;

const errorColumns: Column<RowErrorItem & { i: number }>[] = [
  { key: 'row', header: 'Row', cell: (e) => <span className="tabular-nums">{formatCount(e.row)}</span> },
  { key: 'column', header: 'Column', cell: (e) => e.column ?? <span className="text-slate-500">whole row</span> },
  { key: 'message', header: 'Problem', cell: (e) => <span className="break-words">{e.message}</span> },
];

export interface ImportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The entities offered (those the user may import). */
  entities: readonly TransferEntityInfo[];
  initialEntity?: string;
}

/**
 * New Import: choose what the file holds, drop or pick the file, read every row's errors before
 * anything is stored, map another system's headers (and save the mapping by name), then import
 * in the background with live progress and Cancel.
 */
export function ImportDialog({ open, onOpenChange, entities, initialEntity }: ImportDialogProps) {
  // Patients first when offered: the file a lab most often brings.
  const [entityName, setEntityName] = useState(
    initialEntity ?? entities.find((e) => e.name === 'patients')?.name ?? entities[0]?.name ?? '',
  );
  const [update, setUpdate] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [mappingTouched, setMappingTouched] = useState(false);
  const [mappingName, setMappingName] = useState('');
  const [jobId, setJobId] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const entity = entities.find((e) => e.name === entityName);
  const mappings = useMappings(entityName);
  const recheck = useRecheck();
  const start = useStartImport();
  const cancel = useCancelJob();
  const saveMapping = useSaveMapping();
  const deleteMapping = useDeleteMapping();
  const invalidate = useInvalidateJobs();
  const job = useJob(jobId);

  const reset = () => {
    // An upload given up (no import started) is removed from the server at once; an import removes its own.
    if (upload && jobId === null) discardUpload(upload.id);
    setUpload(null);
    setCheck(null);
    setMapping({});
    setMappingTouched(false);
    setJobId(null);
    setUpdate(false);
  };

  // A job that ends refreshes the lists and cards.
  const status = job.data?.status;
  useEffect(() => {
    if (status === 'completed' || status === 'failed' || status === 'cancelled') void invalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per status change
  }, [status]);

  const columnOptions = useMemo(
    () => [
      { value: '', label: 'Leave out' },
      ...(entity?.columns ?? []).filter((c) => !c.read_only).map((c) => ({ value: c.name, label: c.name })),
    ],
    [entity],
  );

  const sendFile = async (file: File) => {
    if (!entity) return;
    setUploading(true);
    setCheck(null);
    setJobId(null);
    try {
      const r = await uploadForCheck(entity.name, file, update);
      setUpload(r.upload);
      setMapping(Object.fromEntries(r.upload.headers.map((h) => [h.header, h.column])));
      setMappingTouched(false);
      setCheck(r.check);
      // The check is a job of its own: Data Quality and the error columns count it.
      void invalidate();
    } catch (err) {
      notify.error('Upload failed', err);
    } finally {
      setUploading(false);
    }
  };

  const runCheck = async (m: Mapping | undefined, upd = update) => {
    if (!upload || !entity) return;
    const c = await recheck.mutateAsync({ upload_id: upload.id, entity: entity.name, mapping: m, update: upd });
    setCheck(c);
    void invalidate();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const f = e.dataTransfer.files[0];
    if (f) void sendFile(f);
  };

  const chooseSaved = (id: string) => {
    const saved = mappings.data?.find((m) => String(m.id) === id);
    if (!saved || !upload) return;
    const next: Mapping = { ...mapping };
    for (const h of upload.headers) if (Object.hasOwn(saved.mapping, h.header)) next[h.header] = saved.mapping[h.header]!;
    setMapping(next);
    setMappingTouched(true);
    setMappingName(saved.name);
    void runCheck(next).catch(() => undefined);
  };

  const running = status === 'in_progress' || status === 'pending';
  const close = (o: boolean) => {
    if (!o) reset();
    onOpenChange(o);
  };

  const canImport = check?.status === 'completed' && !running && jobId === null;

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="New Import"
      description="Every row is checked before anything is stored; one bad row and nothing is imported."
      size="xl"
      footer={
        <>
          {running && job.data ? (
            <Button variant="destructive" onClick={() => cancel.mutate(job.data!)} disabled={cancel.isPending}>
              {cancel.isPending ? 'Cancelling...' : 'Cancel Import'}
            </Button>
          ) : (
            <Button variant="outline" onClick={() => close(false)}>
              Close
            </Button>
          )}
          {jobId === null && (
            <Button
              disabled={!canImport || start.isPending}
              onClick={() => {
                if (!upload || !entity) return;
                start.mutate(
                  {
                    upload_id: upload.id,
                    entity: entity.name as never,
                    mapping: mappingTouched ? mapping : undefined,
                    update,
                  },
                  { onSuccess: (j) => setJobId(j.id) },
                );
              }}
            >
              {start.isPending
                ? 'Starting...'
                : check?.status === 'completed'
                  ? `Import ${formatCount(check.rows)} ${check.rows === 1 ? 'row' : 'rows'}`
                  : 'Import'}
            </Button>
          )}
        </>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Data type">
          <Select
            value={entityName}
            disabled={upload !== null}
            onChange={(e) => {
              setEntityName(e.target.value);
              reset();
            }}
            options={entities.map((e) => ({ value: e.name, label: e.label }))}
          />
        </FormField>
        {entity?.can_update && (
          <div className="flex items-end pb-2">
            <Checkbox
              label={`Update records whose ${entity.key} is stored already`}
              checked={update}
              disabled={jobId !== null}
              onChange={(e) => {
                const v = e.target.checked;
                setUpdate(v);
                if (upload) void runCheck(mappingTouched ? mapping : undefined, v).catch(() => undefined);
              }}
            />
          </div>
        )}
      </div>

      {!upload && (
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'mt-4 flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-8 text-center',
            dragging ? 'border-primary-500 bg-primary-50' : 'border-slate-300',
          )}
        >
          <FileUp className="size-8 text-slate-500" aria-hidden />
          <p className="text-sm text-slate-800">
            {uploading ? 'Uploading and checking...' : 'Drop a CSV, Excel (.xlsx) or JSON file here'}
          </p>
          <Button variant="outline" disabled={uploading || !entity} onClick={() => fileInput.current?.click()}>
            Choose File
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".csv,.txt,.xlsx,.json"
            className="sr-only"
            aria-label="File to import"
            data-testid="import-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void sendFile(f);
            }}
          />
        </div>
      )}

      {upload && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 p-3 text-[13px]">
          <span>
            <span className="font-medium text-slate-900">{upload.file_name}</span> ·{' '}
            {upload.format?.toUpperCase() ?? 'unknown format'} · {formatBytes(upload.size)}
          </span>
          {jobId === null && (
            <Button size="sm" variant="outline" onClick={reset}>
              Choose another file
            </Button>
          )}
        </div>
      )}

      {upload && upload.headers.length > 0 && jobId === null && (
        <details className="mt-4 rounded border border-slate-200" open={check?.message?.includes('column') ?? false}>
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
                    onChange={(e) => chooseSaved(e.target.value)}
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
                    onChange={(e) => {
                      setMapping({ ...mapping, [h.header]: e.target.value || null });
                      setMappingTouched(true);
                    }}
                    options={columnOptions}
                  />
                </label>
              ))}
            </div>
            <div className="flex flex-wrap items-end gap-2">
              <Button
                variant="outline"
                disabled={recheck.isPending}
                onClick={() => void runCheck(mapping).then(() => setMappingTouched(true), () => undefined)}
              >
                {recheck.isPending ? 'Checking...' : 'Check again with this mapping'}
              </Button>
              <FormField label="Save mapping as" className="min-w-40 flex-1">
                <Input value={mappingName} maxLength={80} onChange={(e) => setMappingName(e.target.value)} />
              </FormField>
              <Button
                variant="outline"
                disabled={!mappingName.trim() || saveMapping.isPending || !entity}
                onClick={() => saveMapping.mutate({ entity: entity!.name as never, name: mappingName.trim(), mapping })}
              >
                <Save />
                Save Mapping
              </Button>
              {mappings.data
                ?.filter((m) => m.name === mappingName.trim())
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
      )}

      {check && jobId === null && (
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
      )}

      {jobId !== null && (
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
              {running && (
                <p>
                  {formatCount(job.data.processed)} rows read
                  {job.data.percent !== null ? ` (${job.data.percent}% of the file)` : ''}...
                </p>
              )}
              {status === 'completed' && (
                <p className="text-green-800">
                  Imported: {formatCount(job.data.inserted)} new, {formatCount(job.data.updated)} updated.
                </p>
              )}
              {(status === 'failed' || status === 'cancelled') && (
                <p className="text-red-800">
                  {job.data.error_message ?? `${formatCount(job.data.errors)} errors`}; nothing was stored.
                </p>
              )}
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
