import { useState } from 'react';
import { AlertTriangle, Check, Copy, KeyRound } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import type { PortalPinIssued } from '@shared/schemas/portal';
import { Badge, Button, Card, CardHeader, ConfirmDialog, DateText, Dialog, ErrorPanel } from '@/components';
import { notify } from '@/lib/notify';
import { useIssuePortalPinMutation, usePortalPinStatus } from '../api';

/** Copies text; falls back to selecting it when the clipboard API is unavailable (plain HTTP on a LAN). */
async function copyText(text: string, fallback: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallback) {
      const range = document.createRange();
      range.selectNodeContents(fallback);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
    return false;
  }
}

function PinDialog({
  patient,
  issued,
  onClose,
}: {
  patient: Patient;
  issued: PortalPinIssued | null;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const [pinEl, setPinEl] = useState<HTMLElement | null>(null);
  const name = `${patient.first_name} ${patient.last_name}`;
  return (
    <Dialog
      open={issued !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
      title={`Portal PIN for ${name}`}
      description={`Patient ID ${patient.patient_id}`}
      size="sm"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {issued && (
        <div className="grid gap-4">
          <div className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3">
            <span
              ref={setPinEl}
              aria-label="Portal PIN"
              className="font-mono text-3xl font-semibold tracking-[0.3em] text-slate-900"
            >
              {issued.pin}
            </span>
            <Button
              variant="outline"
              size="sm"
              onClick={async () => {
                const ok = await copyText(issued.pin, pinEl);
                setCopied(ok);
                if (!ok) notify.info('Copy the selected PIN', 'This browser blocked the clipboard; press Ctrl+C.');
              }}
            >
              {copied ? <Check /> : <Copy />}
              {copied ? 'Copied' : 'Copy PIN'}
            </Button>
          </div>
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              This PIN will not be shown again. Give it to the patient now.
              {issued.reset
                ? ' The previous PIN no longer works and the patient has been signed out of the portal.'
                : ''}
            </span>
          </p>
          <p className="text-[13px] text-slate-600">
            The patient signs in at <span className="font-medium text-slate-800">/patient-portal</span> with their
            Patient ID <span className="font-mono">{patient.patient_id}</span>, their mobile number
            {patient.phone ? ` (${patient.phone})` : ''} and this PIN.
          </p>
        </div>
      )}
    </Dialog>
  );
}

/** Portal access (staff with manage_patients): issue a PIN, or reset it; the PIN is shown once. */
export function PortalAccessPanel({ patient }: { patient: Patient }) {
  const status = usePortalPinStatus(patient.id, true);
  const issue = useIssuePortalPinMutation(patient.id);
  const [issued, setIssued] = useState<PortalPinIssued | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const hasPin = status.data?.issued === true;
  const noPhone = !patient.phone;
  const name = `${patient.first_name} ${patient.last_name}`;

  const run = () =>
    issue.mutate(undefined, {
      onSuccess: (r) => {
        setConfirmReset(false);
        setIssued(r);
      },
    });

  return (
    <Card>
      <CardHeader
        title="Portal access"
        icon={<KeyRound />}
        description="Patients sign in to the patient portal with their Patient ID, mobile number and a PIN."
        actions={
          status.data && (
            <Button
              size="sm"
              variant={hasPin ? 'outline' : 'primary'}
              disabled={noPhone}
              loading={issue.isPending && !confirmReset}
              loadingText="Issuing..."
              onClick={() => (hasPin ? setConfirmReset(true) : run())}
            >
              {hasPin ? 'Reset PIN' : 'Issue PIN'}
            </Button>
          )
        }
      />
      <div className="px-4 py-3 text-sm">
        {status.isPending && <p className="text-slate-600">Checking portal access...</p>}
        {status.isError && <ErrorPanel title="Could not check portal access" query={status} />}
        {status.data &&
          (hasPin ? (
            <p className="flex flex-wrap items-center gap-2 text-slate-700">
              <Badge tone="green">PIN issued</Badge>
              <span>
                on <DateText value={status.data.issued_at} withTime />
              </span>
            </p>
          ) : (
            <p className="flex flex-wrap items-center gap-2 text-slate-700">
              <Badge tone="grey">No PIN</Badge>
              <span>
                {noPhone
                  ? 'Add a mobile number to this patient first: they sign in with it.'
                  : 'This patient cannot sign in to the portal yet.'}
              </span>
            </p>
          ))}
      </div>
      <ConfirmDialog
        open={confirmReset}
        onOpenChange={setConfirmReset}
        title="Reset portal PIN"
        message={`Reset the portal PIN of ${name}? The current PIN stops working and ${patient.first_name} is signed out of the portal.`}
        confirmLabel="Reset PIN"
        busyLabel="Resetting..."
        busy={issue.isPending}
        onConfirm={run}
      />
      <PinDialog patient={patient} issued={issued} onClose={() => setIssued(null)} />
    </Card>
  );
}
