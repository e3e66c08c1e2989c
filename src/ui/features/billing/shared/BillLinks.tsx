import { Download, FileText, KeyRound, Printer } from 'lucide-react';
import { useCurrentUser } from '@/lib/session';
import { Button, buttonClass } from '@/components';
import { billPdfUrl } from '@/lib/bills';
import { printBill } from './print';

/** View, print and download links for a saved bill (the server's PDF). */
export function BillLinks({ bill }: { bill: { id: number; bill_number: string } }) {
  const canIssuePin = useCurrentUser().permissions.includes('manage_patients');
  return (
    <div className="flex flex-wrap gap-2">
      <a
        href={billPdfUrl(bill.id)}
        target="_blank"
        rel="noopener"
        className={buttonClass('outline', 'sm')}
        aria-label={`View bill ${bill.bill_number}`}
      >
        <FileText aria-hidden="true" />
        View
      </a>
      <Button size="sm" variant="outline" onClick={() => printBill(bill)} aria-label={`Print bill ${bill.bill_number}`}>
        <Printer aria-hidden="true" />
        Print
      </Button>
      <a href={billPdfUrl(bill.id, true)} download={`${bill.bill_number}.pdf`} className={buttonClass('outline', 'sm')}>
        <Download aria-hidden="true" />
        Download PDF
      </a>
      {canIssuePin && (
        <a
          href={billPdfUrl(bill.id, false, true)}
          target="_blank"
          rel="noopener"
          className={buttonClass('outline', 'sm')}
          aria-label={`Slip with a new portal PIN for bill ${bill.bill_number}`}
          title="Issues the patient a new portal PIN (any earlier one stops working) and prints it with the portal address"
        >
          <KeyRound aria-hidden="true" />
          Slip with Portal PIN
        </a>
      )}
    </div>
  );
}
