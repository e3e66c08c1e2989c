import type { ReactNode } from 'react';
import type { Sample } from '@shared/schemas/samples';
import {
  Card,
  CardHeader,
  DateText,
  ErrorPanel,
  ListTable,
  LoadingState,
  type Column,
  type ListTableProps,
  type RowAction,
} from '@/components';
import { formatCount } from '@/lib/format';
import { usePagedList, type ListFilter, type PagedListOptions } from '@/lib/usePagedList';
import { useSampleSummary, useSamples } from '../api';
import { SampleCards, type CardKey } from './SampleCards';

const PAGE_SIZES = [20, 50, 100] as const;

/**
 * The sample screens (Sample Collection, Sample Tracking, Barcode System) list the same samples:
 * 50 a page with search and filters in the URL, the lab's sample figures, and one Retry for both.
 */
export function useSampleList(filters: ListFilter[], extra?: PagedListOptions['extra']) {
  const paged = usePagedList({ filters, pageSizes: PAGE_SIZES, defaultLimit: 50, ...(extra ? { extra } : {}) });
  const list = useSamples({ page: paged.page, limit: paged.limit, search: paged.search, ...paged.values });
  const summary = useSampleSummary();
  const retry = () => {
    void list.refetch();
    void summary.refetch();
  };
  return { paged, list, summary, retry };
}
export type SampleList = ReturnType<typeof useSampleList>;

/**
 * A sample screen's body: the spec's error panel in place of the page when the list cannot load
 * (with the loading text while the first page comes, where the screen names one), else the
 * summary cards and what the screen shows with them.
 */
export function SampleScreenBody({
  samples: { list, summary, retry },
  cards,
  errorTitle,
  retryLabel = 'Retry',
  loadingText,
  children,
}: {
  samples: SampleList;
  cards: CardKey[];
  errorTitle: string;
  retryLabel?: string;
  loadingText?: string;
  children: ReactNode;
}) {
  if (loadingText && list.isPending) return <LoadingState text={loadingText} />;
  if (list.isError && !list.data)
    return (
      <ErrorPanel
        title={errorTitle}
        error={list.error}
        onRetry={retry}
        retryLabel={retryLabel}
        retrying={list.isFetching}
      />
    );
  return (
    <>
      <SampleCards summary={summary} cards={cards} />
      {children}
    </>
  );
}

/** The "Samples (N)" card: the paged table of samples with its filter bar and the four states. */
export function SamplesCard({
  samples: { paged, list, retry },
  columns,
  rowActions,
  emptyAction,
  ...table
}: {
  samples: SampleList;
  columns: Column<Sample>[];
  rowActions?: RowAction<Sample>[];
  emptyAction?: ReactNode;
  caption: string;
} & Pick<ListTableProps<Sample, never>, 'search' | 'errorTitle' | 'retryLabel' | 'loadingText' | 'onRowClick'>) {
  return (
    <Card>
      <CardHeader title={list.data ? `Samples (${formatCount(list.data.total)})` : 'Samples'} />
      <ListTable
        {...table}
        list={paged}
        query={list}
        rows={(p) => p.samples}
        itemLabel="samples"
        columns={columns}
        getRowId={(s) => s.id}
        onRetry={retry}
        {...(rowActions ? { rowActions } : {})}
        empty={{
          title: 'No samples found',
          hint: 'No samples have been collected yet',
          filteredHint: 'Try adjusting your search or filter criteria',
          action: emptyAction,
        }}
      />
    </Card>
  );
}

/** What a phone shows under the sample ID: one stacked cell instead of the columns hidden below md. */
export function PhoneLines({ children }: { children: ReactNode }) {
  return <div className="mt-0.5 grid gap-1 md:hidden">{children}</div>;
}

/** The Sample ID column, with the screen's own lines under it on a phone. */
export function sampleIdColumn(phone: (s: Sample) => ReactNode): Column<Sample> {
  return {
    key: 'sample_id',
    header: 'Sample ID',
    cell: (s) => (
      <>
        <span className="font-mono text-[13px] font-medium">{s.sample_id}</span>
        <PhoneLines>{phone(s)}</PhoneLines>
      </>
    ),
  };
}

/** When the sample was collected (hidden on phones), or that it is not collected yet. */
export function collectedAtColumn(header: string): Column<Sample> {
  return {
    key: 'collection_date',
    header,
    hideOnMobile: true,
    cell: (s) =>
      s.collection_date ? (
        <DateText value={s.collection_date} withTime />
      ) : (
        <span className="text-slate-500">Not collected</span>
      ),
  };
}

/** A sample's barcode in a table cell, or that it has none yet. */
export function BarcodeText({ s }: { s: Sample }) {
  return s.barcode ? (
    <span className="font-mono text-[13px] whitespace-nowrap">{s.barcode}</span>
  ) : (
    <span className="text-slate-500">No barcode</span>
  );
}
