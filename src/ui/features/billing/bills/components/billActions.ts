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

/**
 * Why a bill cannot be cancelled, deleted or re-priced, or null when it can: a bill on an issued
 * invoice is what the tax invoice says (corrected by a credit note); a draft invoice holds it.
 */
export function invoiceLockReason(bill: {
  invoice_number: string | null;
  invoice_status: 'draft' | 'issued' | null;
}): string | null {
  if (bill.invoice_status === 'issued')
    return `On issued invoice ${bill.invoice_number}: the bill stays as invoiced and cannot be cancelled, deleted or re-priced. To correct it, cancel invoice ${bill.invoice_number} in Invoices (a credit note is issued and the bill is freed).`;
  if (bill.invoice_status === 'draft')
    return 'On a draft invoice: delete the draft in Invoices before cancelling, deleting or re-pricing this bill.';
  return null;
}
