import { useEffect, useState } from 'react';
import { Plus, ScanBarcode } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import {
  Button,
  Card,
  CardHeader,
  ConfirmDialog,
  DataTable,
  ErrorPanel,
  FilterBar,
  LoadingState,
  PageHeader,
  Pagination,
  deleteMessage,
} from '@/components';
import { useScreen } from '@/lib/screens';
import { formatCount } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { useUrlState } from '@/lib/useUrlState';
import { NoAccess } from '@/components/NoAccess';
import { useDeleteSampleMutation, useSampleStatusMutation, useSampleSummary, useSamples } from '../api';
import { BarcodeScannerDialog } from '../components/BarcodeScannerDialog';
import { CollectSampleDialog } from '../components/CollectSampleDialog';
import { collectionColumns } from '../components/CollectionTable';
import { EditSampleDialog } from '../components/EditSampleDialog';
import { RejectSampleDialog } from '../components/RejectSampleDialog';
import { SampleBarcodeDialog } from '../components/SampleBarcodeDialog';
import { SampleCards } from '../components/SampleCards';
import { SampleDetailsDialog } from '../components/SampleDetailsDialog';
import { PRIORITY_OPTIONS, STATUS_OPTIONS, oneOf } from '../text';

const PAGE_SIZES = [20, 50, 100] as const;
/** Spec 9: samples page 50 at a time. `view` is the sample whose details are open (Sample Tracking links here). */
const DEFAULTS = { search: '', status: 'all', priority: 'all', page: 1, limit: 50, view: 0 };

/** Sample Collection (/samples): collect, label, move through the lab, reject, with the chain of custody. */
export default function SampleCollectionPage() {
  const user = useCurrentUser();
  if (!user.permissions.includes('view_samples')) return <NoAccess what="samples" permission="view_samples" />;
  return <SampleCollection canManage={user.permissions.includes('manage_samples')} />;
}

function SampleCollection({ canManage }: { canManage: boolean }) {
  const screen = useScreen();
  const [q, setQ, resetQ, isActive] = useUrlState(DEFAULTS);
  const status = oneOf(q.status, STATUS_OPTIONS);
  const priority = oneOf(q.priority, PRIORITY_OPTIONS);
  const limit = (PAGE_SIZES as readonly number[]).includes(q.limit) ? q.limit : 50;
  const page = Math.max(1, Math.trunc(q.page));
  const list = useSamples({ page, limit, search: q.search, status, priority });
  const summary = useSampleSummary();
  const filtersActive = isActive('search', 'status', 'priority');

  const [collecting, setCollecting] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [barcodeOf, setBarcodeOf] = useState<Sample | null>(null);
  const [editing, setEditing] = useState<Sample | null>(null);
  const [rejecting, setRejecting] = useState<Sample | null>(null);
  const [deleting, setDeleting] = useState<Sample | null>(null);
  const move = useSampleStatusMutation();
  const remove = useDeleteSampleMutation();

  const totalPages = list.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setQ({ page: totalPages }, { replace: true });
  }, [page, totalPages, setQ]);

  const retry = () => {
    void list.refetch();
    void summary.refetch();
  };

  const columns = collectionColumns({
    canManage,
    busyId: move.isPending ? (move.variables?.id ?? null) : null,
    onView: (s) => setQ({ view: s.id }),
    onBarcode: setBarcodeOf,
    onMove: (s, to) => move.mutate({ id: s.id, status: to }),
    onReject: setRejecting,
    onEdit: setEditing,
    onDelete: setDeleting,
  });

  return (
    <>
      <PageHeader
        title={screen.title}
        subtitle="Collect samples, print tube labels and move each sample through the lab"
        actions={
          <>
            <Button variant="outline" onClick={() => setScanning(true)}>
              <ScanBarcode />
              Scan Barcode
            </Button>
            {canManage && (
              <Button onClick={() => setCollecting(true)}>
                <Plus />
                Collect Sample
              </Button>
            )}
          </>
        }
      />

      {list.isError && !list.data ? (
        // Spec: when loading fails, this panel replaces the page.
        <ErrorPanel
          title="Database Connection Error"
          error={list.error}
          onRetry={retry}
          retryLabel="Retry Connection"
          retrying={list.isFetching}
        />
      ) : (
        <>
          <SampleCards summary={summary} cards={['total', 'collected', 'processing', 'completed']} />
          <Card>
            <CardHeader title={list.data ? `Samples (${formatCount(list.data.total)})` : 'Samples'} />
            <div className="border-b border-slate-100 p-3">
              <FilterBar
                search={q.search}
                onSearchChange={(search) => setQ({ search, page: 1 }, { replace: true })}
                searchPlaceholder="Search by sample ID, barcode, type or patient"
                searchLabel="Search samples"
                selects={[
                  { key: 'status', label: 'Status', value: status, options: STATUS_OPTIONS },
                  { key: 'priority', label: 'Priority', value: priority, options: PRIORITY_OPTIONS },
                ]}
                onSelectChange={(key, value) => setQ({ [key]: value, page: 1 })}
                active={filtersActive}
                onClear={resetQ}
              />
            </div>
            {list.isPending ? (
              <LoadingState text="Loading samples..." />
            ) : (
              <DataTable
                caption="Samples"
                columns={columns}
                rows={list.data?.samples}
                getRowId={(s) => s.id}
                error={list.isError ? list.error : undefined}
                errorTitle="Database Connection Error"
                onRetry={retry}
                retryLabel="Retry Connection"
                onRowClick={(s) => setQ({ view: s.id })}
                empty={{
                  title: 'No samples found',
                  hint: filtersActive
                    ? 'Try adjusting your search or filter criteria'
                    : 'No samples have been collected yet',
                  action:
                    canManage && !filtersActive ? (
                      <Button size="sm" onClick={() => setCollecting(true)}>
                        <Plus />
                        Collect Sample
                      </Button>
                    ) : undefined,
                }}
                className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
              />
            )}
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

      {canManage && (
        <CollectSampleDialog
          open={collecting}
          onOpenChange={setCollecting}
          onCollected={(s) => {
            setCollecting(false);
            setBarcodeOf(s);
          }}
        />
      )}
      <BarcodeScannerDialog
        open={scanning}
        onOpenChange={setScanning}
        onFound={(s) => {
          setScanning(false);
          setBarcodeOf(s);
        }}
      />
      <SampleBarcodeDialog sample={barcodeOf} onOpenChange={(o) => !o && setBarcodeOf(null)} />
      <SampleDetailsDialog
        sampleId={q.view > 0 ? q.view : null}
        onOpenChange={(o) => !o && setQ({ view: 0 })}
        onShowBarcode={(s) => {
          setQ({ view: 0 });
          setBarcodeOf(s);
        }}
      />
      {canManage && (
        <>
          <EditSampleDialog sample={editing} onOpenChange={(o) => !o && setEditing(null)} />
          <RejectSampleDialog sample={rejecting} onOpenChange={(o) => !o && setRejecting(null)} />
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(o) => !o && setDeleting(null)}
            message={
              deleting
                ? deleteMessage(`sample ${deleting.sample_id} of ${deleting.first_name} ${deleting.last_name}`)
                : ''
            }
            busy={remove.isPending}
            onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
          />
        </>
      )}
    </>
  );
}
