import { useMemo, useState } from 'react';
import { Ban, Download, FileWarning } from 'lucide-react';
import { NameCell,
  Button,
  Card,
  CardBody,
  CardHeader,
  clearFiltersEmpty,
  DateText,
  ListTable,
  type Column,
  type RowAction,
} from '@/components';
import {
  DATA_JOB_PAGE_SIZES,
  DATA_JOB_STATUSES,
  DATA_JOB_TYPES,
  DATA_JOB_STATUS_LABELS,
  type DataJob,
} from '@shared/schemas/data-jobs';
import { formatCount, humanize } from '@/lib/format';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { downloadFrom, downloadUrl, useCancelJob, useInvalidateJobs, useJobPage, type Scope } from '../api';
import { ErrorsDialog } from './ErrorsDialog';
import { JobStatus, entityLabel, formatBytes, formatLabel, jobOutcome } from './jobParts';

export interface JobHistoryProps {
  scope: Scope;
  title: string;
  /** The entities offered in the type filter (the screen's scope). */
  entityOptions: readonly string[];
  /** Offer the Import/Export filter (screens that show both). */
  typeFilter?: boolean;
  itemLabel?: string;
}

/**
 * A history table of import and export jobs (the web's and the command line's alike): search,
 * Type and Status filters in the URL, View Errors, Download again, Cancel of a running job.
 */
export function JobHistory({ scope, title, entityOptions, typeFilter = false, itemLabel = 'jobs' }: JobHistoryProps) {
  const filters: ListFilter[] = useMemo(
    () => [
      ...(typeFilter ? [choiceFilter('type', 'Operation', 'All Operations', DATA_JOB_TYPES, humanize)] : []),
      choiceFilter('entity', 'Type', 'All Types', entityOptions, entityLabel),
      choiceFilter('status', 'Status', 'All Statuses', DATA_JOB_STATUSES, DATA_JOB_STATUS_LABELS),
    ],
    [typeFilter, entityOptions],
  );
  const list = usePagedList({ filters, pageSizes: DATA_JOB_PAGE_SIZES, defaultLimit: 10 });
  const jobs = useJobPage({
    search: list.search,
    type: list.apiFilters.type ?? scope.type,
    status: list.apiFilters.status,
    entity: list.apiFilters.entity ?? scope.entities?.join(','),
    page: list.page,
    limit: list.limit,
  });
  const [errorsOf, setErrorsOf] = useState<DataJob | null>(null);
  const cancel = useCancelJob();
  const invalidate = useInvalidateJobs();

  const columns: Column<DataJob>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (j) => (
        <NameCell
          name={j.name}
          nameClassName="break-words"
          detail={`${entityLabel(j.entity)} · ${formatLabel(j.format)}${j.origin === 'cli' ? ' · command line' : ''}`}
          phoneDetail={jobOutcome(j)}
        />
      ),
    },
    {
      key: 'type',
      header: 'Operation',
      cell: (j) => (j.type === 'import' ? 'Import' : 'Export'),
      hideOnMobile: true,
    },
    { key: 'status', header: 'Status', cell: (j) => <JobStatus job={j} /> },
    {
      key: 'records',
      header: 'Records',
      cell: (j) => <span className="tabular-nums">{jobOutcome(j)}</span>,
      hideOnMobile: true,
    },
    {
      key: 'errors',
      header: 'Errors',
      align: 'right',
      cell: (j) => (
        <span className={j.errors ? 'font-medium text-red-700 tabular-nums' : 'tabular-nums'}>
          {formatCount(j.errors)}
        </span>
      ),
      hideOnMobile: true,
    },
    {
      key: 'size',
      header: 'Size',
      align: 'right',
      cell: (j) => <span className="whitespace-nowrap tabular-nums">{formatBytes(j.file_size)}</span>,
      hideOnMobile: true,
    },
    {
      key: 'by',
      header: 'Requested By',
      cell: (j) => <span className="break-all">{j.requested_by ?? '—'}</span>,
      hideOnMobile: true,
    },
    {
      key: 'started',
      header: 'Started',
      cell: (j) => <DateText value={j.started_at ?? j.requested_at} withTime />,
      hideOnMobile: true,
    },
    {
      key: 'completed',
      header: 'Completed',
      cell: (j) => (j.completed_at ? <DateText value={j.completed_at} withTime /> : '—'),
      hideOnMobile: true,
    },
    ...(scope.type !== 'import'
      ? [
          {
            key: 'downloads',
            header: 'Downloads',
            align: 'right' as const,
            cell: (j: DataJob) => (j.type === 'export' ? formatCount(j.download_count) : '—'),
            hideOnMobile: true,
          },
        ]
      : []),
  ];

  const actions: RowAction<DataJob>[] = [
    {
      label: (j) => `View errors of ${j.name}`,
      icon: <FileWarning />,
      onClick: setErrorsOf,
      hidden: (j) => j.type !== 'import' || (j.status !== 'failed' && !j.has_errors),
    },
    {
      label: (j) => `Download ${j.file_name ?? j.name}`,
      icon: <Download />,
      onClick: (j) => {
        downloadFrom(downloadUrl(j.id));
        // The download is counted by the server: read the count again shortly.
        setTimeout(() => void invalidate(), 1500);
      },
      hidden: (j) => !j.downloadable,
    },
    {
      label: (j) => `Cancel ${j.name}`,
      icon: <Ban />,
      onClick: (j) => cancel.mutate(j),
      destructive: true,
      hidden: (j) => !j.cancellable,
      disabled: () => cancel.isPending,
    },
  ];

  return (
    <Card className="min-w-0">
      <CardHeader title={title} />
      <ListTable
        list={list}
        query={jobs}
        rows={(p) => p.jobs}
        search={{ placeholder: 'Search by name, file or person', label: `Search ${itemLabel}` }}
        caption={title}
        itemLabel={itemLabel}
        columns={columns}
        getRowId={(j) => j.id}
        errorTitle="Error Loading Jobs"
        empty={{
          title: 'No jobs found',
          ...clearFiltersEmpty(list),
          hint: 'Imports and exports made here or with lims import / lims export are listed here.',
        }}
        rowActions={actions}
      />
      <ErrorsDialog job={errorsOf} onClose={() => setErrorsOf(null)} />
    </Card>
  );
}

/** Failed Imports / Failed Operations: the last failed jobs of the scope, each with View Errors. */
export function FailedJobs({ scope, title }: { scope: Scope; title: string }) {
  const jobs = useJobPage({
    search: '',
    type: scope.type,
    status: 'failed',
    entity: scope.entities?.join(','),
    page: 1,
    limit: 5,
  });
  const [errorsOf, setErrorsOf] = useState<DataJob | null>(null);
  const rows = jobs.data?.jobs ?? [];
  return (
    <Card className="min-w-0">
      <CardHeader title={title} />
      <CardBody>
        {jobs.isPending ? (
          <p className="text-[13px] text-slate-600">Loading...</p>
        ) : jobs.isError ? (
          <p className="text-[13px] text-red-700">Could not load the failed jobs.</p>
        ) : rows.length === 0 ? (
          <p className="text-[13px] text-slate-600">No failed jobs.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {rows.map((j) => (
              <li key={j.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <span className="block text-sm font-medium break-words text-slate-900">{j.name}</span>
                  <span className="block text-[13px] text-slate-600">
                    {j.error_message ?? jobOutcome(j)} · <DateText value={j.requested_at} withTime />
                  </span>
                </div>
                {j.type === 'import' && (
                  <Button size="sm" variant="outline" onClick={() => setErrorsOf(j)}>
                    View Errors
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardBody>
      <ErrorsDialog job={errorsOf} onClose={() => setErrorsOf(null)} />
    </Card>
  );
}
