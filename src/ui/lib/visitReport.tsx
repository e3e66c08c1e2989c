import { FileText } from 'lucide-react';
import { resultsApi } from '@shared/api/results';
import { Button } from '@/components';
import { contractUrl } from '@/lib/api';
import { openPdf } from '@/lib/openPdf';
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
 * Opens a visit's report in a new window (each fetch counts as a print); a report that may not
 * leave the lab yet (a critical value not telephoned, money due) says why instead.
 */
export function openVisitReport(billId: number): Promise<void> {
  return openPdf(visitReportUrl(billId), {
    preparing: 'Preparing the report',
    failed: 'The report could not be opened',
  });
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
