import { notify } from '@/lib/notify';
import { billPdfUrl } from '@/lib/bills';
import { printPdfInWindow } from '@/lib/printPdfInWindow';

/**
 * Printing a bill (UI.md "Printing"): the server's PDF opens in a new window and the browser's print
 * dialog opens on it. The window must be opened inside the click (before any await), or popup
 * blockers refuse it; the bill is saved meanwhile and the PDF is put in afterwards.
 */
export function openPrintWindow(): Window | null {
  const w = window.open('', '_blank');
  if (!w) {
    notify.error('Please allow popups to print the bill');
    return null;
  }
  w.document.title = 'Preparing bill...';
  w.document.body.textContent = 'Preparing the bill for printing...';
  return w;
}

/** Shows the bill's PDF in the window and asks the browser to print it once loaded. */
export function showBillInWindow(w: Window, bill: { id: number; bill_number: string }): void {
  printPdfInWindow(w, { title: `Bill ${bill.bill_number}`, url: billPdfUrl(bill.id) });
}

/** Print a bill that is already saved. */
export function printBill(bill: { id: number; bill_number: string }): void {
  const w = openPrintWindow();
  if (w) showBillInWindow(w, bill);
}
