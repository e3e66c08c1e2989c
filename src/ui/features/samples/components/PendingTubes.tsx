import { useState } from 'react';
import { Printer, TestTubes } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { tubeLabel } from '@shared/tubes';
import { samplesApi } from '@shared/api/samples';
import { Button, FormField, Input } from '@/components';
import { contractUrl } from '@/lib/api';
import { useCollectPendingMutation, useSamples } from '../api';

/**
 * The tubes a patient's bills ordered that are not drawn yet: each with its tests and barcode label,
 * all collected in one action (one draw, several tubes). A tube left unticked stays pending.
 */
export function PendingTubes({
  patientId,
  location,
  collectorId,
  focusId = null,
  onCollected,
}: {
  patientId: number;
  location: string | null;
  /** Collected By of the dialog; the server records the signed-in user when null. */
  collectorId: number | null;
  /** The tube that was scanned: only it is ticked at first. */
  focusId?: number | null;
  onCollected: (samples: Sample[]) => void;
}) {
  const pending = useSamples({ page: 1, limit: 50, status: 'pending', patient_id: patientId });
  const collect = useCollectPendingMutation();
  const rows = pending.data?.samples ?? [];
  // Every tube is ticked unless unticked (usually all are drawn together); a scanned tube alone.
  const [ticked, setTicked] = useState<Set<number> | null>(focusId ? new Set([focusId]) : null);
  const chosen = new Set(rows.filter((s) => (ticked ? ticked.has(s.id) : true)).map((s) => s.id));
  const [scan, setScan] = useState('');
  const [scanError, setScanError] = useState<string | null>(null);
  // A hand scanner types the tube's label and presses Enter: that tube is collected at once.
  const collectScanned = () => {
    const code = scan.trim().toUpperCase();
    if (!code) return;
    const tube = rows.find((s) => s.barcode === code || s.sample_id === code);
    if (!tube) {
      setScanError(`${code} is not one of this patient's tubes to collect`);
      return;
    }
    setScanError(null);
    setScan('');
    // The dialog stays on this patient: the list refreshes and the next tube can be scanned.
    collect.mutate({ ids: [tube.id], location, collector_id: collectorId });
  };
  if (pending.isPending) return <div className="skeleton h-16" aria-label="Loading tubes to collect" />;
  if (pending.isError) return <p className="text-[13px] text-red-700">Tubes to collect could not be loaded.</p>;
  if (!rows.length) return null;
  const toggle = (id: number, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev ?? rows.map((s) => s.id));
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <section aria-labelledby="pending-tubes" className="rounded-md border border-primary-200 bg-primary-50/40 p-3">
      <h3 id="pending-tubes" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <TestTubes className="size-4" aria-hidden="true" />
        Tubes to collect ({rows.length})
      </h3>
      <p className="text-xs text-slate-600">
        Ordered by the patient&apos;s bills. Scan each tube&apos;s label as it is drawn, or tick the tubes and collect
        them together.
      </p>
      <FormField label="Scan a tube" error={scanError ?? undefined} className="mt-2">
        <Input
          value={scan}
          autoComplete="off"
          placeholder="Barcode or sample ID"
          onChange={(e) => setScan(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              collectScanned();
            }
          }}
        />
      </FormField>
      <ul className="mt-2 grid gap-2">
        {rows.map((s) => (
          <li
            key={s.id}
            className={`flex items-start gap-3 rounded-md bg-white p-2 ring-1 ${s.id === focusId ? 'ring-2 ring-primary-500' : 'ring-slate-200'}`}
          >
            <input
              type="checkbox"
              className="mt-1 size-4 accent-primary-600"
              checked={chosen.has(s.id)}
              onChange={(e) => toggle(s.id, e.target.checked)}
              aria-label={`Collect ${tubeLabel(s.container) ?? s.sample_type} ${s.sample_id}`}
            />
            <span className="min-w-0 flex-1 text-[13px]">
              <span className="font-medium text-slate-900">{tubeLabel(s.container) ?? s.sample_type}</span>
              {s.id === focusId && <span className="ml-2 text-xs font-medium text-primary-700">Scanned</span>}
              {s.recollect_of_code && (
                <span className="ml-2 text-xs text-amber-800">Recollection of {s.recollect_of_code}</span>
              )}
              <span className="ml-2 font-mono text-xs text-slate-600">
                {s.sample_id}
                {s.barcode && ` · ${s.barcode}`}
                {s.bill_number && ` · ${s.bill_number}`}
              </span>
              <span className="block text-slate-700">{s.tests.map((t) => t.code).join(', ')}</span>
            </span>
            <a
              href={contractUrl(samplesApi.label, { params: { id: s.id } })}
              target="_blank"
              rel="noopener"
              className="shrink-0 text-primary-700 hover:underline"
              aria-label={`Print the label of ${s.sample_id}`}
            >
              <Printer className="size-4" aria-hidden="true" />
            </a>
          </li>
        ))}
      </ul>
      <Button
        className="mt-3"
        onClick={() =>
          collect.mutate(
            { ids: [...chosen], location, collector_id: collectorId },
            { onSuccess: (samples) => onCollected(samples) },
          )
        }
        disabled={chosen.size === 0}
        loading={collect.isPending}
        loadingText="Collecting..."
      >
        <TestTubes />
        Collect {chosen.size} {chosen.size === 1 ? 'tube' : 'tubes'}
      </Button>
    </section>
  );
}
