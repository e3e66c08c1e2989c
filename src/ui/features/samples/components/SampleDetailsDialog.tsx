import type { ReactNode } from 'react';
import { Barcode, RotateCcw } from 'lucide-react';
import type { Sample, SampleHistoryEntry } from '@shared/schemas/samples';
import { Button, DateText, Dialog, ErrorPanel, LoadingState } from '@/components';
import { VisitReportButton } from '@/lib/visitReport';
import { humanize } from '@/lib/format';
import { useSample } from '../api';
import { PriorityBadge, StatusBadge, collectorName, patientName } from '../text';

export interface SampleDetailsDialogProps {
  /** The sample's database id; 0 or null closes the dialog. */
  sampleId: number | null;
  onOpenChange: (open: boolean) => void;
  onShowBarcode: (sample: Sample) => void;
  /** Offered on a rejected sample not drawn again yet (for staff who manage samples). */
  onRecollect?: (sample: Sample) => void;
  /** Opens the linked sample (the recollection, or the rejected first tube). */
  onOpenSample?: (id: number) => void;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-sm font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function step(h: SampleHistoryEntry): string {
  return h.from_status ? `${humanize(h.from_status)} → ${humanize(h.to_status)}` : humanize(h.to_status);
}

/** Sample details: the facts, the ordered tests and the chain of custody (who, when, where, notes). */
export function SampleDetailsDialog({
  sampleId,
  onOpenChange,
  onShowBarcode,
  onRecollect,
  onOpenSample,
}: SampleDetailsDialogProps) {
  const open = sampleId !== null && sampleId > 0;
  const q = useSample(open ? sampleId : null);
  const s = q.data;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={s ? `Sample ${s.sample_id}` : 'Sample Details'}
      description={s ? `${patientName(s)} · ${s.patient_number || 'N/A'}` : undefined}
      size="lg"
      footer={
        s && (s.barcode || s.bill_id !== null || canRecollect(s, onRecollect)) ? (
          <>
            {canRecollect(s, onRecollect) && (
              <Button variant="outline" onClick={() => onRecollect!(s)}>
                <RotateCcw />
                Recollect
              </Button>
            )}
            {s.bill_id !== null && <VisitReportButton billId={s.bill_id} />}
            {s.barcode && (
              <Button variant="outline" onClick={() => onShowBarcode(s)}>
                <Barcode />
                Show Barcode
              </Button>
            )}
          </>
        ) : undefined
      }
    >
      {q.isPending ? (
        <LoadingState text="Loading sample..." />
      ) : q.isError ? (
        <ErrorPanel title="Could not load the sample" query={q} />
      ) : s ? (
        <div className="grid gap-5">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
            <Fact label="Status">
              <StatusBadge status={s.status} icon />
            </Fact>
            <Fact label="Priority">
              <PriorityBadge priority={s.priority} />
            </Fact>
            <Fact label="Sample Type">{s.sample_type}</Fact>
            <Fact label="Barcode">
              <span className="font-mono">{s.barcode ?? 'No barcode'}</span>
            </Fact>
            <Fact label="Collected">
              {s.collection_date ? <DateText value={s.collection_date} withTime /> : 'Not yet'}
            </Fact>
            <Fact label="ETA">{s.eta ? <DateText value={s.eta} withTime /> : 'N/A'}</Fact>
            <Fact label="Collected By">{collectorName(s) ?? 'Not recorded'}</Fact>
            <Fact label="Location">{s.location || 'N/A'}</Fact>
            <Fact label="Condition on Receipt">{s.receipt_condition || 'Not recorded'}</Fact>
            {s.completed_at && (
              <Fact label="Completed">
                <DateText value={s.completed_at} withTime />
              </Fact>
            )}
          </dl>
          {s.rejection_reason && (
            <p className="rounded-md border border-red-200 bg-red-50 p-2.5 text-[13px] text-red-900">
              <span className="font-semibold">Rejected:</span> {s.rejection_reason}
            </p>
          )}
          {(s.recollected_as !== null || s.recollect_of !== null) && (
            <p className="rounded-md border border-amber-200 bg-amber-50 p-2.5 text-[13px] text-amber-950">
              {s.recollected_as !== null ? 'Recollected as ' : 'Recollection of '}
              <LinkedSample
                id={(s.recollected_as ?? s.recollect_of)!}
                code={(s.recollected_as_code ?? s.recollect_of_code)!}
                onOpen={onOpenSample}
              />
            </p>
          )}
          {s.notes && (
            <p className="text-[13px] text-slate-700">
              <span className="font-medium">Notes:</span> {s.notes}
            </p>
          )}
          <section aria-labelledby="ordered-tests">
            <h3 id="ordered-tests" className="mb-1.5 text-sm font-semibold text-slate-900">
              Ordered Tests ({s.tests.length})
            </h3>
            {s.tests.length ? (
              <ul className="flex flex-wrap gap-1.5">
                {s.tests.map((t) => (
                  <li key={t.id} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-800">
                    {t.name} <span className="font-mono text-slate-500">{t.code}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-[13px] text-slate-600">No tests were ordered on this sample.</p>
            )}
          </section>
          <section aria-labelledby="custody">
            <h3 id="custody" className="mb-2 text-sm font-semibold text-slate-900">
              Chain of Custody
            </h3>
            <ol aria-label="Chain of custody" className="relative ml-2 border-l border-slate-200">
              {(s.history ?? []).map((h) => (
                <li key={h.id} className="mb-3 ml-4 last:mb-0">
                  <span
                    className="absolute -left-1.5 mt-1.5 size-3 rounded-full border-2 border-white bg-primary-500"
                    aria-hidden="true"
                  />
                  <p className="text-sm font-medium text-slate-900">{step(h)}</p>
                  <p className="text-xs text-slate-600">
                    <DateText value={h.created_at} withTime /> · {h.changed_by_name ?? 'System'}
                    {h.location ? ` · ${h.location}` : ''}
                  </p>
                  {h.notes && <p className="mt-0.5 text-[13px] text-slate-700">{h.notes}</p>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      ) : null}
    </Dialog>
  );
}

function canRecollect(s: Sample, onRecollect: ((s: Sample) => void) | undefined): boolean {
  return !!onRecollect && s.status === 'rejected' && s.recollected_as === null;
}

function LinkedSample({ id, code, onOpen }: { id: number; code: string; onOpen?: (id: number) => void }) {
  if (!onOpen) return <span className="font-mono font-medium">{code}</span>;
  return (
    <button type="button" className="font-mono font-medium text-primary-700 underline" onClick={() => onOpen(id)}>
      {code}
    </button>
  );
}
