import { ShieldAlert } from 'lucide-react';
import { usePortalCentre } from '../api';

/**
 * Why the lab holds the centre's new bills and reports, on every portal screen where it matters:
 * the centre learns it before it orders, not from a refusal.
 */
export function HoldNotice() {
  const centre = usePortalCentre().data;
  if (!centre?.hold.on_hold) return null;
  return (
    <div
      role="alert"
      className="mb-4 flex items-start gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <ShieldAlert className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-semibold">The lab is holding new orders and reports for {centre.name}</p>
        <p className="mt-0.5 break-words">{centre.hold.reason}</p>
        <p className="mt-1 text-[13px] text-amber-900">
          A payment against your statement lifts the hold as soon as the lab records it.
        </p>
      </div>
    </div>
  );
}
