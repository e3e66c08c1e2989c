import { useState } from 'react';
import { Plus } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { Button, ConfirmDialog, deleteMessage, ScreenHeader } from '@/components';
import { useCurrentUser } from '@/lib/session';
import { choiceFilter, type ListFilter } from '@/lib/usePagedList';
import { isValidBarcode } from '@shared/samples';
import { notify } from '@/lib/notify';
import { useDeleteSampleMutation, useSampleStatusMutation, useScanToCollect } from '../api';
import { normaliseBarcode } from '../useBarcodeLookup';
import { useWedgeScanner } from '../useWedgeScanner';
import { RecollectDialog } from '../components/RecollectDialog';
import { useScanBarcode } from '../components/BarcodeScannerDialog';
import { CollectSampleDialog } from '../components/CollectSampleDialog';
import { collectionColumns } from '../components/CollectionTable';
import { EditSampleDialog } from '../components/EditSampleDialog';
import { RejectSampleDialog } from '../components/RejectSampleDialog';
import { SampleBarcodeDialog } from '../components/SampleBarcodeDialog';
import { SampleScreenBody, SamplesCard, useSampleList } from '../components/SampleList';
import { SampleDetailsDialog } from '../components/SampleDetailsDialog';
import { PRIORITY_OPTIONS, STATUS_OPTIONS } from '../text';

/** Spec 9: samples page 50 at a time. `view` is the sample whose details are open (Sample Tracking links here). */
const FILTERS: ListFilter[] = [
  { key: 'status', label: 'Status', options: STATUS_OPTIONS },
  { key: 'priority', label: 'Priority', options: PRIORITY_OPTIONS },
  choiceFilter('report', 'Report', 'Any Report State', ['to_report'], {
    to_report: 'To report (completed, not printed)',
  }),
];
const EXTRA = { view: 0 };

/** Sample Collection (/samples): collect, label, move through the lab, reject, with the chain of custody. */
export default function SampleCollectionPage() {
  const canManage = useCurrentUser().permissions.includes('manage_samples');
  const samples = useSampleList(FILTERS, EXTRA);
  const { paged } = samples;
  const view = Number(paged.state.view) || 0;
  const setView = (id: number) => paged.setState({ view: id });

  const [collecting, setCollecting] = useState(false);
  // The pending tube Collect opens on: scanned, or its row's Collect button.
  const [tube, setTube] = useState<Sample | null>(null);
  const [recollecting, setRecollecting] = useState<Sample | null>(null);
  const [barcodeOf, setBarcodeOf] = useState<Sample | null>(null);
  const scanner = useScanBarcode(setBarcodeOf);
  const [editing, setEditing] = useState<Sample | null>(null);
  const [rejecting, setRejecting] = useState<Sample | null>(null);
  const [deleting, setDeleting] = useState<Sample | null>(null);
  const move = useSampleStatusMutation();
  const remove = useDeleteSampleMutation();

  const collectTube = (s: Sample) => {
    setTube(s);
    setCollecting(true);
  };
  const scan = useScanToCollect(collectTube);
  // A full barcode in the search box (a scanner types it and presses Enter) opens Collect on that tube.
  const onScan = (text: string): boolean => {
    const code = normaliseBarcode(text);
    if (!isValidBarcode(code)) return false;
    if (!canManage) {
      notify.error('Cannot collect', 'Your role cannot collect samples (manage_samples)');
      return true;
    }
    scan.mutate(code);
    return true;
  };
  const dialogOpen =
    collecting || scanner.open || view > 0 || !!barcodeOf || !!editing || !!rejecting || !!deleting || !!recollecting;
  // A scan with the focus outside any field (the page just opened) does the same.
  useWedgeScanner(canManage && !dialogOpen, (code) => void onScan(code));

  const columns = collectionColumns({
    canManage,
    busyId: move.isPending ? (move.variables?.id ?? null) : null,
    onView: (s) => setView(s.id),
    onBarcode: setBarcodeOf,
    onMove: (s, to) => move.mutate({ id: s.id, status: to }),
    onCollect: collectTube,
    onRecollect: setRecollecting,
    onReject: setRejecting,
    onEdit: setEditing,
    onDelete: setDeleting,
  });

  return (
    <>
      <ScreenHeader
        subtitle="Collect samples, print tube labels and move each sample through the lab"
        actions={
          <>
            {scanner.button}
            {canManage && (
              <Button onClick={() => setCollecting(true)}>
                <Plus />
                Collect Sample
              </Button>
            )}
          </>
        }
      />

      {/* Spec: when loading fails, the Database Connection Error panel replaces the page. */}
      <SampleScreenBody
        samples={samples}
        cards={['total', 'collected', 'processing', 'completed']}
        errorTitle="Database Connection Error"
        retryLabel="Retry Connection"
      >
        <SamplesCard
          samples={samples}
          search={{
            placeholder: 'Scan a barcode or search samples',
            label: 'Search samples or scan a barcode',
            onEnter: onScan,
          }}
          caption="Samples"
          columns={columns}
          loadingText="Loading samples..."
          errorTitle="Database Connection Error"
          retryLabel="Retry Connection"
          onRowClick={(s) => setView(s.id)}
          emptyAction={
            canManage ? (
              <Button size="sm" onClick={() => setCollecting(true)}>
                <Plus />
                Collect Sample
              </Button>
            ) : undefined
          }
        />
      </SampleScreenBody>

      {canManage && (
        <CollectSampleDialog
          key={tube?.id ?? 0}
          open={collecting}
          tube={tube}
          onOpenChange={(o) => {
            setCollecting(o);
            if (!o) setTube(null);
          }}
          onCollected={(s) => {
            setCollecting(false);
            setTube(null);
            setBarcodeOf(s);
          }}
        />
      )}
      {scanner.dialog}
      <SampleBarcodeDialog sample={barcodeOf} onOpenChange={(o) => !o && setBarcodeOf(null)} />
      <SampleDetailsDialog
        sampleId={view > 0 ? view : null}
        onOpenChange={(o) => !o && setView(0)}
        onShowBarcode={(s) => {
          setView(0);
          setBarcodeOf(s);
        }}
        onRecollect={
          canManage
            ? (s) => {
                setView(0);
                setRecollecting(s);
              }
            : undefined
        }
        onOpenSample={setView}
      />
      {canManage && (
        <>
          <EditSampleDialog sample={editing} onOpenChange={(o) => !o && setEditing(null)} />
          <RejectSampleDialog sample={rejecting} onOpenChange={(o) => !o && setRejecting(null)} />
          <RecollectDialog
            sample={recollecting}
            onOpenChange={(o) => !o && setRecollecting(null)}
            onDone={(fresh) => {
              setRecollecting(null);
              setBarcodeOf(fresh);
            }}
          />
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
