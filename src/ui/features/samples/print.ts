import { notify } from '@/lib/notify';
import { barcodeImageUrl, labelPdfUrl } from './api';

interface LabelRef {
  id: number;
  sample_id: string;
  barcode: string | null;
}

/** Spec 9: the print window prints by itself one second after the label is in. */
const AUTO_PRINT_DELAY_MS = 1000;

/**
 * Print Label: the server's 50 x 25 mm label PDF in a new window, whose print dialog opens a second
 * after it loads (UI.md "Printing"). Must be called inside the click, or popup blockers refuse it.
 */
export function printLabel(sample: LabelRef): void {
  const w = window.open('', '_blank');
  if (!w) {
    notify.error('Print Error', 'Unable to open print window');
    return;
  }
  const doc = w.document;
  doc.title = `Label ${sample.sample_id}`;
  doc.body.style.margin = '0';
  const frame = doc.createElement('iframe');
  frame.title = `Label ${sample.sample_id}`;
  // about:blank has no base URL of its own: the address must be absolute.
  frame.src = new URL(labelPdfUrl(sample.id), window.location.origin).href;
  frame.style.cssText = 'border:0;display:block;width:100vw;height:100vh';
  frame.addEventListener('load', () => {
    setTimeout(() => {
      try {
        frame.contentWindow?.focus();
        frame.contentWindow?.print();
      } catch {
        // The PDF viewer's own print button remains.
      }
    }, AUTO_PRINT_DELAY_MS);
  });
  doc.body.appendChild(frame);
  notify.info('Print Started', `Printing the label of sample ${sample.sample_id}`);
}

/** Download: the Code 128 image (made on the server with bwip-js), saved as <barcode>.png. */
export function downloadBarcode(sample: LabelRef): void {
  if (!sample.barcode) return;
  const a = document.createElement('a');
  a.href = barcodeImageUrl(sample.barcode, 'code128');
  a.download = `${sample.barcode}.png`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  notify.info('Download Started', `Downloading barcode ${sample.barcode}`);
}
