import { FileText } from 'lucide-react';
import { resultsApi } from '@shared/api/results';
import { Button } from '@/components';
import { contractUrl } from '@/lib/api';
import { notify } from '@/lib/notify';
import { can } from '@/lib/roles';
import { useCurrentUser } from '@/lib/session';

/** The report of a visit: one PDF with every released result of the bill's samples. */
export function visitReportUrl(billId: number, download = false): string {
  return contractUrl(resultsApi.visitReport, {
    params: { id: billId },
    query: { download: download ? '1' : undefined },
  });
}

/**
 * Opens a visit's report in a new window. The window is opened inside the click (popup blockers),
 * the PDF fetched once (each fetch counts as a print) and shown from memory; a report that may not
 * leave the lab yet (a critical value not telephoned, money due) says why instead.
 */
export async function openVisitReport(billId: number): Promise<void> {
  const win = window.open('', '_blank');
  if (win) {
    win.document.title = 'Preparing report...';
    win.document.body.textContent = 'Preparing the report...';
  }
  try {
    const res = await fetch(visitReportUrl(billId), { credentials: 'same-origin' });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      win?.close();
      notify.error('The report could not be opened', body?.message ?? `The server answered ${res.status}`);
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    if (win) win.location.href = url;
    else window.open(url, '_blank', 'noopener');
  } catch (err) {
    win?.close();
    notify.error('The report could not be opened', err instanceof Error ? err.message : String(err));
  }
}

/** "Visit Report" for a bill, shown to those who may print reports. */
export function VisitReportButton({
  billId,
  size = 'md',
  label = 'Visit Report',
}: {
  billId: number | null;
  size?: 'md' | 'sm';
  label?: string;
}) {
  const user = useCurrentUser();
  if (billId === null || !can(user, 'print_reports')) return null;
  return (
    <Button variant="outline" size={size} onClick={() => void openVisitReport(billId)}>
      <FileText />
      {label}
    </Button>
  );
}
