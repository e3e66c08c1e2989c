import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { portalPinApi } from '@shared/api/portal';
import type { PortalPinIssued } from '@shared/schemas/portal';
import { Button } from '@/components/Button';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/**
 * Offers the patient's portal PIN right after registration: issued on request, shown once with the
 * portal address, Patient ID and the rule that the mobile number signs in with it.
 */
export function PortalPinOffer({ patientId, patientCode }: { patientId: number; patientCode: string }) {
  const [issued, setIssued] = useState<PortalPinIssued | null>(null);
  const [busy, setBusy] = useState(false);
  const portal = `${window.location.origin}/patient-portal`;
  if (issued)
    return (
      <p role="status" className="rounded-md bg-white/70 p-2 text-[13px] text-slate-900 ring-1 ring-emerald-200">
        Portal PIN <strong className="font-mono text-base tracking-widest">{issued.pin}</strong> (shown once). The
        patient signs in at <span className="font-mono">{portal}</span> with Patient ID{' '}
        <span className="font-mono">{patientCode}</span>, their mobile number and this PIN.
      </p>
    );
  return (
    <Button
      size="sm"
      variant="outline"
      loading={busy}
      loadingText="Issuing..."
      onClick={() => {
        setBusy(true);
        call(portalPinApi.issue, { params: { id: patientId } })
          .then(setIssued, (err: unknown) => notify.error('Failed to issue portal PIN', err))
          .finally(() => setBusy(false));
      }}
    >
      <KeyRound aria-hidden="true" />
      Issue Portal PIN
    </Button>
  );
}
