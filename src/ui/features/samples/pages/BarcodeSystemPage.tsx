import { useEffect, useState } from 'react';
import { Printer, QrCode, ScanBarcode, Wand2 } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import {
  Button,
  Card,
  CardHeader,
  DataTable,
  DateText,
  ErrorPanel,
  FilterBar,
  LoadingState,
  PageHeader,
  Pagination,
  type Column,
  type RowAction,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { formatCount } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { NoAccess } from '@/components/NoAccess';
import { useGenerateBarcodesMutation, useSampleSummary, useSamples } from '../api';
import { BarcodeScannerDialog } from '../components/BarcodeScannerDialog';
import { LookupPanel } from '../components/LookupPanel';
import { SampleBarcodeDialog } from '../components/SampleBarcodeDialog';
import { SampleCards } from '../components/SampleCards';
import { printLabel } from '../print';
import { OPEN_STATUS_OPTIONS, StatusBadge, oneOf } from '../text';

const PAGE_SIZES = [20, 50, 100] as const;
const DEFAULTS = { search: '', status: 'all', page: 1, limit: 50 };

const columns: Column<Sample>[] = [
  {
    key: 'sample_id',
    header: 'Sample ID',
    cell: (s) => (
      <>
        <span className="font-mono text-[13px] font-medium">{s.sample_id}</span>
        {/* Phones show one stacked cell instead of the columns hidden below md. */}
        <div className="mt-0.5 grid gap-1 md:hidden">
          <span className="font-mono text-[13px] text-slate-700">{s.barcode ?? 'No barcode'}</span>
          <span className="flex items-center gap-1.5 text-[13px] text-slate-600">
            {s.sample_type} <StatusBadge status={s.status} />
          </span>
        </div>
      </>
    ),
  },
  {
    key: 'barcode',
    header: 'Barcode',
    hideOnMobile: true,
    cell: (s) =>
      s.barcode ? (
        <span className="font-mono text-[13px]">{s.barcode}</span>
      ) : (
        <span className="text-slate-500">No barcode</span>
      ),
  },
  { key: 'sample_type', header: 'Sample Type', hideOnMobile: true, cell: (s) => s.sample_type },
  { key: 'status', header: 'Status', hideOnMobile: true, cell: (s) => <StatusBadge status={s.status} /> },
  { key: 'location', header: 'Location', hideOnMobile: true, cell: (s) => s.location || 'N/A' },
  {
    key: 'collection_date',
    header: 'Collection Date',
    hideOnMobile: true,
    cell: (s) =>
      s.collection_date ? (
        <DateText value={s.collection_date} withTime />
      ) : (
        <span className="text-slate-500">Not collected</span>
      ),
  },
];

/** Barcode System (/barcode-system): look samples up by barcode, print labels, fill in missing barcodes. */
export default function BarcodeSystemPage() {
  const user = useCurrentUser();
  if (!user.permissions.includes('view_samples'))
    return <NoAccess what="the barcode system" permission="view_samples" />;
  return <BarcodeSystem canManage={user.permissions.includes('manage_samples')} />;
}

function BarcodeSystem({ canManage }: { canManage: boolean }) {
  const screen = useScreen();
  const [q, setQ, resetQ, isActive] = useUrlState(DEFAULTS);
  const status = oneOf(q.status, OPEN_STATUS_OPTIONS);
  const limit = (PAGE_SIZES as readonly number[]).includes(q.limit) ? q.limit : 50;
  const page = Math.max(1, Math.trunc(q.page));
  const list = useSamples({ page, limit, search: q.search, status });
  const summary = useSampleSummary();
  const generate = useGenerateBarcodesMutation();
  const filtersActive = isActive('search', 'status');
  const [scanning, setScanning] = useState(false);
  const [shown, setShown] = useState<Sample | null>(null);

  const totalPages = list.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setQ({ page: totalPages }, { replace: true });
  }, [page, totalPages, setQ]);

  const retry = () => {
    void list.refetch();
    void summary.refetch();
  };

  const actions: RowAction<Sample>[] = [
    {
      label: (s) => (s.barcode ? `View barcode of ${s.sample_id}` : `${s.sample_id} has no barcode`),
      icon: <QrCode />,
      onClick: setShown,
      disabled: (s) => !s.barcode,
    },
    {
      label: (s) => (s.barcode ? `Print label of ${s.sample_id}` : `No label for ${s.sample_id} yet`),
      icon: <Printer />,
      onClick: (s) => printLabel(s),
      disabled: (s) => !s.barcode,
    },
  ];

  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle="Scan or type a barcode to find its sample; print tube labels"
        actions={
          <>
            <Button variant="outline" onClick={() => setScanning(true)}>
              <ScanBarcode />
              Scan Barcode
            </Button>
            {canManage && (
              <Button onClick={() => generate.mutate()} loading={generate.isPending} loadingText="Generating...">
                <Wand2 />
                Generate Missing Barcodes
              </Button>
            )}
          </>
        }
      />

      {list.isPending ? (
        <LoadingState text="Loading barcode system..." />
      ) : list.isError && !list.data ? (
        <ErrorPanel
          title="Error Loading Barcode System"
          error={list.error}
          onRetry={retry}
          retryLabel="Retry"
          retrying={list.isFetching}
        />
      ) : (
        <>
          <SampleCards summary={summary} cards={['total', 'with_barcode', 'collected', 'processing']} />
          <LookupPanel onFound={setShown} />
          <Card>
            <CardHeader title={list.data ? `Samples (${formatCount(list.data.total)})` : 'Samples'} />
            <div className="border-b border-slate-100 p-3">
              <FilterBar
                search={q.search}
                onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
                searchPlaceholder="Search by sample ID, barcode or type"
                searchLabel="Search samples"
                selects={[{ key: 'status', label: 'Status', value: status, options: OPEN_STATUS_OPTIONS }]}
                onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
                active={filtersActive}
                onClear={resetQ}
              />
            </div>
            <DataTable
              caption="Samples and barcodes"
              columns={columns}
              rows={list.data?.samples}
              getRowId={(s) => s.id}
              error={list.isError ? list.error : undefined}
              errorTitle="Error Loading Barcode System"
              onRetry={retry}
              retryLabel="Retry"
              rowActions={actions}
              empty={{
                title: 'No samples found',
                hint: filtersActive
                  ? 'Try adjusting your search or filter criteria'
                  : 'No samples have been collected yet',
              }}
              className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
            />
            {list.data && list.data.total > 0 && !list.isError && (
              <Pagination
                className="border-t border-slate-100"
                page={page}
                totalPages={list.data.totalPages}
                total={list.data.total}
                pageSize={limit}
                pageSizes={PAGE_SIZES}
                onPageChange={(p) => setQ({ page: p })}
                onPageSizeChange={(size) => setQ({ limit: size, page: 1 })}
                itemLabel="samples"
              />
            )}
          </Card>
        </>
      )}

      <BarcodeScannerDialog
        open={scanning}
        onOpenChange={setScanning}
        onFound={(s) => {
          setScanning(false);
          setShown(s);
        }}
      />
      <SampleBarcodeDialog sample={shown} onOpenChange={(o) => !o && setShown(null)} />
    </>
  );
}
