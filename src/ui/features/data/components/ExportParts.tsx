import { useEffect, useRef, useState } from 'react';
import { Download, FileDown } from 'lucide-react';
import { Button, Card, CardBody, CardHeader, DateRangeFields, Dialog, FormField, rangeIsBackwards, Select } from '@/components';
import {
  EXPORT_FORMATS,
  FORMAT_LABELS,
  type DataFormat,
  type ExportFormat,
  type TransferEntityInfo,
} from '@shared/schemas/data-jobs';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { downloadFrom, downloadUrl, templateUrl, useInvalidateJobs, useJob, useStartExport } from '../api';
import { JobStatus, entityLabel } from './jobParts';

/**
 * Starts an export job and downloads its file once the server has written it (the job keeps the
 * file for the lab's retention days: History's Download gets it again).
 */
export function useExportAndDownload() {
  const start = useStartExport();
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useJob(jobId);
  const invalidate = useInvalidateJobs();
  const status = job.data?.status;
  const ended = status === 'completed' || status === 'failed' || status === 'cancelled';
  // The job whose end was handled (downloaded or reported), so it is handled once.
  const handled = useRef<number | null>(null);
  useEffect(() => {
    if (!job.data || jobId === null || !ended || handled.current === jobId) return;
    handled.current = jobId;
    if (status === 'completed') {
      downloadFrom(downloadUrl(job.data.id));
      notify.success('Export ready', `${formatCount(job.data.records ?? 0)} records in ${job.data.file_name ?? 'the file'}.`);
      setTimeout(() => void invalidate(), 1500);
    } else {
      notify.error('Export failed', job.data.error_message ?? status);
      void invalidate();
    }
  }, [status, jobId, ended, job.data, invalidate]);
  const busy = start.isPending || (jobId !== null && !ended);
  return {
    run: (entity: string, format: ExportFormat, range: { from?: string; to?: string } = {}) =>
      start.mutate(
        { entity: entity as never, format, from: range.from || undefined, to: range.to || undefined },
        { onSuccess: (j) => setJobId(j.id) },
      ),
    busy,
    job: busy ? job.data : undefined,
  };
}

export interface QuickOption {
  label: string;
  entity: string | null;
  formats: ExportFormat[];
  /** Why the option cannot be used (a module lims does not have yet). */
  unavailable?: string;
}

/** Quick Export Options: one click, one real file. */
export function QuickExport({
  options,
  entities,
  onCustom,
}: {
  options: QuickOption[];
  entities: readonly TransferEntityInfo[];
  onCustom: () => void;
}) {
  const exp = useExportAndDownload();
  const [which, setWhich] = useState('');
  return (
    <Card className="min-w-0">
      <CardHeader title="Quick Export Options" description="Downloads every record of the type; Custom Export chooses dates." />
      <CardBody>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {options.map((o) => {
            const info = o.entity ? entities.find((e) => e.name === o.entity) : undefined;
            const blocked = o.unavailable ?? (info && !info.can_export ? 'needs the export permission' : undefined);
            return (
              <li key={o.label} className="rounded border border-slate-200 p-3">
                <p className="text-sm font-medium text-slate-900">{o.label}</p>
                {blocked && <p className="text-[12px] text-slate-600">{blocked}</p>}
                <div className="mt-2 flex flex-wrap gap-2">
                  {o.formats.map((f) => (
                    <Button
                      key={f}
                      size="sm"
                      variant="outline"
                      disabled={!!blocked || exp.busy || !o.entity}
                      onClick={() => {
                        setWhich(`${o.label} ${f}`);
                        exp.run(o.entity!, f);
                      }}
                    >
                      <FileDown />
                      {exp.busy && which === `${o.label} ${f}` ? 'Preparing...' : FORMAT_LABELS[f]}
                    </Button>
                  ))}
                </div>
              </li>
            );
          })}
          <li className="rounded border border-dashed border-slate-300 p-3">
            <p className="text-sm font-medium text-slate-900">Custom Export</p>
            <p className="text-[12px] text-slate-600">Any data type, format and date range.</p>
            <Button size="sm" className="mt-2" onClick={onCustom}>
              Create Export
            </Button>
          </li>
        </ul>
        {exp.job && (
          <div className="mt-3 flex items-center gap-2 text-[13px]" aria-live="polite">
            <JobStatus job={exp.job} /> {exp.job.name}: {formatCount(exp.job.processed)} records written...
          </div>
        )}
      </CardBody>
    </Card>
  );
}

/** Create Export: data type, format, and a date range where the type has a date. */
export function ExportDialog({
  open,
  onOpenChange,
  entities,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  entities: readonly TransferEntityInfo[];
}) {
  const offered = entities.filter((e) => e.can_export);
  const [entity, setEntity] = useState(offered[0]?.name ?? '');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const exp = useExportAndDownload();
  const info = offered.find((e) => e.name === entity);
  const formats = EXPORT_FORMATS.filter((f) => f !== 'pdf' || entity === 'bills');
  const badRange = rangeIsBackwards(from, to);
  // PDF is offered for billing data only; another type falls back to CSV.
  const chosen: ExportFormat = formats.includes(format) ? format : 'csv';

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create Export"
      description="The file is written on the server and kept for the lab's backup retention days; it downloads when ready."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button
            disabled={!info || badRange || exp.busy}
            onClick={() => exp.run(entity, chosen, info?.date_field ? { from, to } : {})}
          >
            <Download />
            {exp.busy ? 'Exporting...' : 'Export'}
          </Button>
        </>
      }
    >
      {offered.length === 0 ? (
        <p className="text-[13px] text-slate-700">You do not have permission to export any data.</p>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="Data type">
            <Select
              value={entity}
              onChange={(e) => setEntity(e.target.value)}
              options={offered.map((e) => ({ value: e.name, label: e.label }))}
            />
          </FormField>
          <FormField label="Format">
            <Select
              value={chosen}
              onChange={(e) => setFormat(e.target.value as ExportFormat)}
              options={formats.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
            />
          </FormField>
          {info?.date_field ? (
            <>
              <DateRangeFields
                from={from}
                to={to}
                fieldClassName=""
                onChange={(range) => {
                  setFrom(range.from);
                  setTo(range.to);
                }}
              />
              <p className="text-[12px] text-slate-600 sm:col-span-2">
                By {info.date_field}; lab calendar days, both included. Leave empty for all.
              </p>
            </>
          ) : (
            info && <p className="text-[12px] text-slate-600 sm:col-span-2">{info.label}: every record is exported.</p>
          )}
          {exp.job && (
            <div className="flex items-center gap-2 text-[13px] sm:col-span-2" aria-live="polite">
              <JobStatus job={exp.job} /> {formatCount(exp.job.processed)} records written...
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}

/** Data Templates: per type, the columns and one example row as CSV, Excel or JSON. */
export function TemplatesPanel({
  title = 'Data Templates',
  items,
}: {
  title?: string;
  items: { label: string; entity: string | null; unavailable?: string }[];
}) {
  const formats: DataFormat[] = ['csv', 'xlsx', 'json'];
  return (
    <Card className="min-w-0">
      <CardHeader title={title} description="The columns lims reads and one example row." />
      <CardBody>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {items.map((t) => (
            <li key={t.label} className="rounded border border-slate-200 p-3">
              <p className="text-sm font-medium text-slate-900">{t.label}</p>
              {t.unavailable && <p className="text-[12px] text-slate-600">{t.unavailable}</p>}
              {t.entity && (
                <div className="mt-2 flex flex-wrap gap-2">
                  {formats.map((f) => (
                    <a
                      key={f}
                      className="rounded border border-slate-300 px-2.5 py-1 text-[13px] text-slate-800 hover:bg-slate-50"
                      href={templateUrl(t.entity!, f)}
                      download
                      aria-label={`Download ${t.label} template (${FORMAT_LABELS[f]})`}
                    >
                      {FORMAT_LABELS[f]}
                    </a>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}

export { entityLabel };
