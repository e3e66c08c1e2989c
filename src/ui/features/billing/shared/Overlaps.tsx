import { useMemo } from 'react';
import { AlertTriangle } from 'lucide-react';
import { billOverlaps, type Overlap, type OverlapLine } from '@shared/bill-overlap';
import { Checkbox } from '@/components';
import { useCatalogueList } from '@/lib/catalogue';
import type { ItemType } from './lines';

/**
 * The lines of a bill that charge a test twice (CBC and a package holding CBC), worked out from the
 * catalogue as the server does (src/shared/bill-overlap.ts), while the bill is written.
 */
export function useOverlaps(lines: readonly { item_type: ItemType; item_id: number; name: string }[]): Overlap[] {
  // The same lists the pickers load (cached): profiles and packages with their tests.
  const profiles = useCatalogueList('profile', { status: 'active' });
  const packages = useCatalogueList('package', { status: 'active' });
  return useMemo(() => {
    if (lines.length < 2) return [];
    const profileTests = new Map((profiles.data ?? []).map((p) => [p.id, p.test_details]));
    const packageById = new Map((packages.data ?? []).map((p) => [p.id, p]));
    const withTests: OverlapLine[] = lines.map((l) => {
      const tests = new Map<number, string>();
      const add = (t: { id: number; name: string }) => tests.set(t.id, t.name);
      if (l.item_type === 'test') add({ id: l.item_id, name: l.name });
      if (l.item_type === 'profile') (profileTests.get(l.item_id) ?? []).forEach(add);
      if (l.item_type === 'package') {
        const p = packageById.get(l.item_id);
        for (const pr of p?.profile_details ?? []) (profileTests.get(pr.id) ?? []).forEach(add);
        (p?.test_details ?? []).forEach(add);
      }
      return { ...l, tests: [...tests].map(([id, name]) => ({ id, name })) };
    });
    return billOverlaps(withTests);
  }, [lines, profiles.data, packages.data]);
}

/** The warning under the lines, and the biller's choice to charge them anyway (confirm_duplicates). */
export function OverlapWarning({
  overlaps,
  confirmed,
  onConfirm,
}: {
  overlaps: Overlap[];
  confirmed: boolean;
  onConfirm: (v: boolean) => void;
}) {
  if (!overlaps.length) return null;
  return (
    <div
      role="alert"
      data-testid="overlap-warning"
      className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
    >
      <p className="flex items-center gap-1.5 font-medium">
        <AlertTriangle className="size-4 shrink-0" />
        Charged twice on this bill
      </p>
      <ul className="list-disc pl-5">
        {overlaps.map((o) => (
          <li key={`${o.line}-${o.within}`}>{o.message}</li>
        ))}
      </ul>
      <Checkbox
        label="Charge them anyway (the patient wants both)"
        checked={confirmed}
        onChange={(e) => onConfirm(e.target.checked)}
      />
    </div>
  );
}
