/**
 * Shows a PDF the server makes in a window opened inside the click (popup blockers refuse one
 * opened later) and asks the browser to print it once it has loaded, `delayMs` after. Used for
 * bills and sample labels (UI.md "Printing"); where printing cannot be started, the PDF viewer's
 * own print button remains.
 */
export function printPdfInWindow(w: Window, pdf: { title: string; url: string; delayMs?: number }): void {
  const doc = w.document;
  doc.title = pdf.title;
  doc.body.textContent = '';
  doc.body.style.margin = '0';
  const frame = doc.createElement('iframe');
  frame.title = pdf.title;
  // about:blank has no base URL of its own: the address must be absolute.
  frame.src = new URL(pdf.url, window.location.origin).href;
  frame.style.cssText = 'border:0;display:block;width:100vw;height:100vh';
  const print = () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      // The PDF viewer's own print button remains.
    }
  };
  frame.addEventListener('load', () => {
    if (pdf.delayMs) setTimeout(print, pdf.delayMs);
    else print();
  });
  doc.body.appendChild(frame);
}
