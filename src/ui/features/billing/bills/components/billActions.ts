import { notify } from '@/lib/notify';
import { billPdfUrl } from '@/lib/bills';
import { showBillInWindow } from '../../shared/print';

type BillRef = { id: number; bill_number: string };

/**
 * Print: the server's PDF in a new window, where the browser's print dialog opens (UI.md
 * "Printing"). window.open must run inside the click, or popup blockers refuse it.
 */
export function printBillPdf(bill: BillRef): void {
  const w = window.open('', '_blank');
  if (!w) {
    notify.error('Print Error', 'Unable to open print window');
    return;
  }
  showBillInWindow(w, bill);
  notify.info('Print Started', `Printing bill ${bill.bill_number}`);
}

/** Download: the same PDF as an attachment, saved by the browser under the bill number. */
export function downloadBillPdf(bill: BillRef): void {
  const a = document.createElement('a');
  a.href = billPdfUrl(bill.id, true);
  a.download = `${bill.bill_number}.pdf`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  notify.info('Download Started', `Downloading bill ${bill.bill_number}`);
}
