import { Download, FileText, Printer } from 'lucide-react';
import { Button, buttonClass } from '@/components';
import { billPdfUrl } from '@/lib/bills';
import { printBill } from './print';

/** View, print and download links for a saved bill (the server's PDF). */
export function BillLinks({ bill }: { bill: { id: number; bill_number: string } }) {
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
    </div>
  );
}
