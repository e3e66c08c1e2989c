import { FileDown, Tag } from 'lucide-react';
import { centrePortalApi } from '@shared/api/centre-portal';
import { tubeLabel } from '@shared/tubes';
import { Badge, Button, Dialog, ErrorPanel, LoadingState, Money } from '@/components';
import { contractUrl } from '@/lib/api';
import { openPdf } from '@/lib/openPdf';
import { usePortalBill } from '../api';

/**
 * One of the centre's bills: each tube with its label to print before the sample travels, and the
 * report once released. A report the lab holds (the centre on hold, a critical value not yet
 * telephoned) says why instead of offering the PDF.
 */
export function PortalBillDialog({ billId, onClose }: { billId: number | null; onClose: () => void }) {
  const detail = usePortalBill(billId);
  const d = detail.data;
  const printable = d?.reports.some((r) => r.printable) ?? false;
  const label = (sampleId: number, code: string) =>
    void openPdf(contractUrl(centrePortalApi.label, { params: { id: sampleId } }), {
      preparing: `Label ${code}`,
      failed: 'Cannot print the label',
    });
  const report = () =>
    void openPdf(contractUrl(centrePortalApi.report, { params: { id: billId! } }), {
      preparing: `Report of ${d?.bill.bill_number ?? 'the bill'}`,
      failed: 'Cannot open the report',
    });
  return (
    <Dialog
      open={billId !== null}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      title={d ? `Bill ${d.bill.bill_number}` : 'Bill'}
      description={d ? `${d.bill.patient_name} · ${d.bill.patient_code}` : undefined}
      footer={
        <Button onClick={report} disabled={!printable}>
          <FileDown />
          Report PDF
        </Button>
      }
    >
      {detail.isPending && <LoadingState />}
      {detail.isError && (
        <ErrorPanel title="Error Loading the Bill" error={detail.error} onRetry={() => void detail.refetch()} />
      )}
      {d && (
        <div className="grid gap-3">
          <dl className="grid grid-cols-3 gap-2 text-sm">
            {(
              [
                ['Amount', d.bill.amount],
                ['Paid', d.bill.paid],
                ['Due', d.bill.due],
              ] as const
            ).map(([k, v]) => (
              <div key={k} className="rounded-md border border-slate-200 p-2">
                <dt className="text-[13px] text-slate-600">{k}</dt>
                <dd className="font-semibold">
                  <Money rupees={v} />
                </dd>
              </div>
            ))}
          </dl>
          {d.reports.length === 0 ? (
            <p className="text-sm text-slate-600">No tubes on this bill.</p>
          ) : (
            <ul aria-label="Tubes" className="divide-y divide-slate-200 rounded-md border border-slate-200">
              {d.reports.map((r) => (
                <li key={r.sample_id} className="grid gap-1 px-3 py-2 text-sm sm:grid-cols-[1fr_auto] sm:items-center">
                  <div className="min-w-0">
                    <p className="font-mono font-medium break-all text-slate-900">{r.sample_code}</p>
                    <p className="text-[13px] text-slate-600">
                      {r.sample_type}
                      {r.container ? ` · ${tubeLabel(r.container)}` : ''} · {r.tests.join(', ')}
                    </p>
                    <p className="mt-1 flex flex-wrap items-center gap-2">
                      <Badge tone={r.printable ? 'green' : r.reported_at ? 'amber' : 'grey'}>
                        {r.printable ? 'Report ready' : r.reported_at ? 'Held' : 'Awaiting results'}
                      </Badge>
                      {!r.printable && r.reason && <span className="text-[13px] text-slate-700">{r.reason}</span>}
                    </p>
                  </div>
                  <Button variant="outline" size="sm" onClick={() => label(r.sample_id, r.sample_code)}>
                    <Tag />
                    Tube label
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}
