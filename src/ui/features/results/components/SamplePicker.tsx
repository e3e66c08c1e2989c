import { useMemo, useState, type FormEvent } from 'react';
import { ScanBarcode } from 'lucide-react';
import type { TestResult } from '@shared/schemas/results';
import { Button, FormField, Input } from '@/components';
import { errorMessage } from '@/lib/api';
import { useResults, findSample } from '../api';
import { PriorityBadge } from './cells';

interface Waiting {
  sampleId: number;
  code: string;
  patient: string;
  priority: string;
  tests: string[];
}

const PRIORITY_ORDER: Record<string, number> = { urgent: 0, high: 1, normal: 2, low: 3 };

/** Groups the worklist (tests awaiting a result) by sample, most urgent first. */
function bySample(rows: TestResult[]): Waiting[] {
  const m = new Map<number, Waiting>();
  for (const r of rows) {
    const w = m.get(r.sample_id) ?? {
      sampleId: r.sample_id,
      code: r.sample_number,
      patient: `${r.first_name} ${r.last_name}`,
      priority: r.priority,
      tests: [],
    };
    w.tests.push(r.test_name);
    m.set(r.sample_id, w);
  }
  return [...m.values()].sort((a, b) => (PRIORITY_ORDER[a.priority] ?? 2) - (PRIORITY_ORDER[b.priority] ?? 2));
}

/**
 * Step one of result entry: scan the tube's barcode (a hand scanner types it and presses Enter),
 * type the sample ID, or pick a sample from the worklist.
 */
export function SamplePicker({ onPick }: { onPick: (sampleId: number) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const waiting = useResults({ status: 'pending', limit: 200 });
  const samples = useMemo(() => bySample(waiting.data?.results ?? []), [waiting.data]);

  async function lookup(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError('Please enter a barcode or sample ID');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const s = await findSample(code);
      if (s) onPick(s.id);
      else setError(`No sample found with ${code.trim().toUpperCase()}`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="grid gap-5">
      <form onSubmit={(e) => void lookup(e)} className="flex flex-wrap items-end gap-2">
        <FormField
          label="Sample ID or barcode"
          error={error ?? undefined}
          hint="Scan the tube's barcode, or type the sample ID (SMP...)"
          className="min-w-0 flex-1"
        >
          <Input
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="BCBL... or SMP..."
            autoComplete="off"
            spellCheck={false}
          />
        </FormField>
        <Button type="submit" loading={busy} loadingText="Finding..." className="mb-[22px]">
          <ScanBarcode />
          Find Sample
        </Button>
      </form>

      <section aria-labelledby="waiting-title">
        <h3 id="waiting-title" className="mb-2 text-[13px] font-semibold text-slate-800">
          Samples awaiting results
        </h3>
        {waiting.isPending ? (
          <p className="text-[13px] text-slate-600">Loading samples...</p>
        ) : waiting.isError ? (
          <p className="text-[13px] text-red-700">Could not load the worklist: {errorMessage(waiting.error)}</p>
        ) : samples.length === 0 ? (
          <p className="text-[13px] text-slate-600">No collected or processing sample is waiting for results.</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {samples.slice(0, 12).map((w) => (
              <li key={w.sampleId}>
                <button
                  type="button"
                  onClick={() => onPick(w.sampleId)}
                  className="grid w-full gap-0.5 rounded-md border border-slate-200 p-2.5 text-left text-[13px] hover:border-primary-400 hover:bg-primary-50 focus-visible:ring-2 focus-visible:ring-primary-500 focus-visible:outline-none"
                  aria-label={`Enter results for ${w.code}, ${w.patient}`}
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="font-mono text-xs font-medium text-slate-900">{w.code}</span>
                    <PriorityBadge priority={w.priority} />
                  </span>
                  <span className="font-medium text-slate-800">{w.patient}</span>
                  <span className="truncate text-xs text-slate-600">
                    {w.tests.length} awaiting: {w.tests.join(', ')}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
