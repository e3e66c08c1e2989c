import { useState, type ReactNode } from 'react';
import { resultsApi } from '@shared/api/results';
import type { ReportStatus } from '@shared/schemas/results';
import { Button, Dialog, FormField, Textarea } from '@/components';
import { call, errorMessage } from '@/lib/api';
import { notify } from '@/lib/notify';
import { reportUrl } from '../api';

/**
 * Print a sample's report: asks the server first whether it may leave the lab. A held report (a
 * critical value not yet telephoned, or money due when the lab holds reports until paid) says why
 * instead of opening; a report held for payment may be released by a validator with a reason.
 */
export function usePrintReport(canRelease: boolean): { print: (sampleId: number) => void; dialog: ReactNode } {
  const [held, setHeld] = useState<{ sampleId: number; status: ReportStatus } | null>(null);
  async function print(sampleId: number) {
    // Opened now, while the click still counts as the user's, then pointed at the PDF or closed.
    const win = window.open('', '_blank');
    try {
      const status = await call(resultsApi.reportStatus, { params: { id: sampleId } });
      if (status.releasable) {
        if (win) win.location.href = reportUrl(sampleId);
        else window.open(reportUrl(sampleId), '_blank', 'noopener');
        return;
      }
      win?.close();
      setHeld({ sampleId, status });
    } catch (err) {
      win?.close();
      notify.error('The report could not be opened', errorMessage(err));
    }
  }
  const dialog = held && (
    <HeldReportDialog
      sampleId={held.sampleId}
      status={held.status}
      canRelease={canRelease && held.status.code === 'REPORT_HELD_UNPAID'}
      onClose={() => setHeld(null)}
      onReleased={() => {
        const id = held.sampleId;
        setHeld(null);
        window.open(reportUrl(id), '_blank', 'noopener');
      }}
    />
  );
  return { print: (id) => void print(id), dialog };
}

function HeldReportDialog({
  sampleId,
  status,
  canRelease,
  onClose,
  onReleased,
}: {
  sampleId: number;
  status: ReportStatus;
  canRelease: boolean;
  onClose: () => void;
  onReleased: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function release() {
    if (!reason.trim()) {
      setError('Reason is required');
      return;
    }
    setBusy(true);
    try {
      await call(resultsApi.releaseReport, { params: { id: sampleId }, body: { reason: reason.trim() } });
      notify.success('Report released');
      onReleased();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && !busy && onClose()}
      title="Report Held"
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Close
          </Button>
          {canRelease && (
            <Button onClick={() => void release()} loading={busy} loadingText="Releasing...">
              Release and Print
            </Button>
          )}
        </>
      }
    >
      <p role="alert" className="text-[13px] text-slate-900">
        {status.message}
      </p>
      {canRelease && (
        <FormField label="Reason for releasing before payment" required error={error ?? undefined} className="mt-3">
          <Textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        </FormField>
      )}
    </Dialog>
  );
}
