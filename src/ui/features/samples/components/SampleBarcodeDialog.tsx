import type { ReactNode } from 'react';
import { Download, Printer } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { Button, DateText, Dialog } from '@/components';
import { barcodeImageUrl } from '../api';
import { downloadBarcode, printLabel } from '../print';
import { PriorityBadge, StatusBadge, patientName } from '../text';

export interface SampleBarcodeDialogProps {
  sample: Sample | null;
  onOpenChange: (open: boolean) => void;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 border-b border-slate-100 py-1.5 last:border-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** Sample Barcode dialog (spec): barcode image, QR image, details, Download, Print Label. */
export function SampleBarcodeDialog({ sample, onOpenChange }: SampleBarcodeDialogProps) {
  const s = sample;
  return (
    <Dialog
      open={s !== null}
      onOpenChange={onOpenChange}
      title="Sample Barcode"
      description={s ? `Sample ${s.sample_id} · ${patientName(s)}` : undefined}
      size="lg"
      footer={
        s?.barcode ? (
          <>
            <Button variant="outline" onClick={() => downloadBarcode(s)}>
              <Download />
              Download
            </Button>
            <Button onClick={() => printLabel(s)}>
              <Printer />
              Print Label
            </Button>
          </>
        ) : (
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        )
      }
    >
      {s &&
        (s.barcode ? (
          <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_11rem]">
            <figure className="flex flex-col items-center justify-center rounded-md border border-slate-200 bg-white p-3">
              <img
                src={barcodeImageUrl(s.barcode, 'code128')}
                alt={`Barcode ${s.barcode}`}
                className="h-24 w-full max-w-sm object-contain"
              />
              <figcaption className="sr-only">Code 128 barcode</figcaption>
            </figure>
            <figure className="flex flex-col items-center justify-center rounded-md border border-slate-200 bg-white p-3">
              <img src={barcodeImageUrl(s.barcode, 'qrcode')} alt={`QR code ${s.barcode}`} className="size-36" />
              <figcaption className="sr-only">QR code</figcaption>
            </figure>
          </div>
        ) : (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-[13px] text-amber-900">
            This sample has no barcode yet. It gets one when it is collected, or use Generate Missing Barcodes in the
            Barcode System.
          </p>
        ))}
      {s && (
        <dl className="mt-4 text-[13px]">
          <Row label="Barcode">{s.barcode ?? 'No barcode'}</Row>
          <Row label="Sample ID">{s.sample_id}</Row>
          <Row label="Patient">
            {patientName(s)} <span className="font-normal text-slate-600">({s.patient_number || 'N/A'})</span>
          </Row>
          <Row label="Sample Type">{s.sample_type}</Row>
          <Row label="Tests">{s.tests.length ? s.tests.map((t) => t.name).join(', ') : 'None ordered'}</Row>
          <Row label="Status">
            <StatusBadge status={s.status} />
          </Row>
          <Row label="Priority">
            <PriorityBadge priority={s.priority} />
          </Row>
          <Row label="Location">{s.location || 'N/A'}</Row>
          <Row label="Collection Time">
            {s.collection_date ? <DateText value={s.collection_date} withTime /> : 'Not collected'}
          </Row>
        </dl>
      )}
    </Dialog>
  );
}
