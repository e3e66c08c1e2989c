import { Download } from 'lucide-react';
import { Button, DataTable, Dialog, ErrorPanel, LoadingState, type Column } from '@/components';
import type { DataJob, RowErrorItem } from '@shared/schemas/data-jobs';
import { formatCount } from '@/lib/format';
import { downloadFrom, errorReportUrl, useJobErrors } from '../api';
import { ErrorGroups } from './ErrorGroups';

const columns: Column<RowErrorItem & { i: number }>[] = [
  { key: 'row', header: 'Row', cell: (e) => <span className="tabular-nums">{formatCount(e.row)}</span> },
  { key: 'column', header: 'Column', cell: (e) => e.column ?? <span className="text-slate-500">whole row</span> },
  { key: 'message', header: 'Problem', cell: (e) => <span className="break-words">{e.message}</span> },
];

/** View Errors: why an import or check failed, its row errors (the first 1,000), and the full report. */
export function ErrorsDialog({ job, onClose }: { job: DataJob | null; onClose: () => void }) {
  const errors = useJobErrors(job?.id ?? null);
  const data = errors.data;
  return (
    <Dialog
      open={job !== null}
      onOpenChange={(o) => !o && onClose()}
      title={job ? `Errors: ${job.name}` : 'Errors'}
      description={
        data
          ? data.total
            ? `${formatCount(data.total)} error${data.total === 1 ? '' : 's'}; nothing of this file was stored. Rows are numbered as a spreadsheet shows the file (the header is row 1).`
            : 'The file was refused as a whole; nothing of it was stored.'
          : undefined
      }
      size="xl"
      footer={
        <>
          {data?.has_report && job && (
            <Button variant="outline" onClick={() => downloadFrom(errorReportUrl(job.id))}>
              <Download />
              Download full error report
            </Button>
          )}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      {errors.isPending ? (
        <LoadingState text="Loading errors..." />
      ) : errors.isError ? (
        <ErrorPanel title="Error Loading Errors" query={errors} />
      ) : (
        <>
          {data?.message && (
            <p className="mb-3 rounded border border-red-200 bg-red-50 p-3 text-[13px] text-red-800">{data.message}</p>
          )}
          {data && <ErrorGroups groups={data.groups} unit={data.unit} />}
          {data && data.errors.length > 0 && (
            <DataTable
              caption="Row errors"
              columns={columns}
              rows={data.errors.map((e, i) => ({ ...e, i }))}
              getRowId={(e) => e.i}
              empty={{ title: 'No row errors' }}
            />
          )}
          {data && data.total > data.errors.length && (
            <p className="mt-2 text-[13px] text-slate-600">
              The first {formatCount(data.errors.length)} are shown; the full report lists all{' '}
              {formatCount(data.total)}.
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
