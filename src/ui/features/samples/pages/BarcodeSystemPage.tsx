import { useState } from 'react';
import { Printer, QrCode, Wand2 } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { Button, ScreenHeader, type Column, type RowAction } from '@/components';
import { useCurrentUser } from '@/lib/session';
import type { ListFilter } from '@/lib/usePagedList';
import { useGenerateBarcodesMutation } from '../api';
import { useScanBarcode } from '../components/BarcodeScannerDialog';
import { LookupPanel } from '../components/LookupPanel';
import { SampleBarcodeDialog } from '../components/SampleBarcodeDialog';
import {
  BarcodeText,
  collectedAtColumn,
  SampleScreenBody,
  SamplesCard,
  sampleIdColumn,
  useSampleList,
} from '../components/SampleList';
import { printLabel } from '../print';
import { OPEN_STATUS_OPTIONS, StatusBadge } from '../text';

const FILTERS: ListFilter[] = [{ key: 'status', label: 'Status', options: OPEN_STATUS_OPTIONS }];

const columns: Column<Sample>[] = [
  sampleIdColumn((s) => (
    <>
      <span className="font-mono text-[13px] text-slate-700">{s.barcode ?? 'No barcode'}</span>
      <span className="flex items-center gap-1.5 text-[13px] text-slate-600">
        {s.sample_type} <StatusBadge status={s.status} />
      </span>
    </>
  )),
  {
    key: 'barcode',
    header: 'Barcode',
    hideOnMobile: true,
    cell: (s) => <BarcodeText s={s} />,
  },
  { key: 'sample_type', header: 'Sample Type', hideOnMobile: true, cell: (s) => s.sample_type },
  { key: 'status', header: 'Status', hideOnMobile: true, cell: (s) => <StatusBadge status={s.status} /> },
  { key: 'location', header: 'Location', hideOnMobile: true, cell: (s) => s.location || 'N/A' },
  collectedAtColumn('Collection Date'),
];

/** Barcode System (/barcode-system): look samples up by barcode, print labels, fill in missing barcodes. */
export default function BarcodeSystemPage() {
  const canManage = useCurrentUser().permissions.includes('manage_samples');
  const samples = useSampleList(FILTERS);
  const generate = useGenerateBarcodesMutation();
  const [shown, setShown] = useState<Sample | null>(null);
  const scanner = useScanBarcode(setShown);

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
      <ScreenHeader
        subtitle="Scan or type a barcode to find its sample; print tube labels"
        actions={
          <>
            {scanner.button}
            {canManage && (
              <Button onClick={() => generate.mutate()} loading={generate.isPending} loadingText="Generating...">
                <Wand2 />
                Generate Missing Barcodes
              </Button>
            )}
          </>
        }
      />

      <SampleScreenBody
        samples={samples}
        cards={['total', 'with_barcode', 'collected', 'processing']}
        loadingText="Loading barcode system..."
        errorTitle="Error Loading Barcode System"
      >
        <LookupPanel onFound={setShown} />
        <SamplesCard
          samples={samples}
          search={{ placeholder: 'Search by sample ID, barcode or type', label: 'Search samples' }}
          caption="Samples and barcodes"
          columns={columns}
          errorTitle="Error Loading Barcode System"
          rowActions={actions}
        />
      </SampleScreenBody>

      {scanner.dialog}
      <SampleBarcodeDialog sample={shown} onOpenChange={(o) => !o && setShown(null)} />
    </>
  );
}
