import { useEffect, useRef, useState, type DragEvent } from 'react';
import { FileUp } from 'lucide-react';
import { Button, Checkbox, Dialog, FormField, Select } from '@/components';
import type { ImportCheck, TransferEntityInfo, Upload } from '@shared/schemas/data-jobs';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { cn } from '@/lib/cn';
import {
  discardUpload,
  uploadForCheck,
  useCancelJob,
  useInvalidateJobs,
  useJob,
  useMappings,
  useRecheck,
  useStartImport,
} from '../api';
import { formatBytes } from './jobParts';
import { CheckOutcome, ImportProgress, MappingPanel, type Mapping } from './ImportParts';

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
        <MappingPanel
          upload={upload}
          entity={entity}
          mapping={mapping}
          open={check?.message?.includes('column') ?? false}
          onChange={(next) => {
            setMapping(next);
            setMappingTouched(true);
          }}
          onChooseSaved={chooseSaved}
          onCheck={() => void runCheck(mapping).then(() => setMappingTouched(true), () => undefined)}
          checking={recheck.isPending}
          name={mappingName}
          onNameChange={setMappingName}
        />
      )}

      {check && jobId === null && <CheckOutcome check={check} />}

      {jobId !== null && <ImportProgress job={job} />}
    </Dialog>
  );
}
