import { notify } from '@/lib/notify';

/**
 * Opens a PDF the server makes in a new window, or says why it cannot. The window is opened inside
 * the click (popup blockers refuse one opened after an await) showing `preparing`, the PDF is
 * fetched once and shown from memory; when the server refuses (a report too long for a PDF, a
 * report that may not leave the lab yet) the window closes and the server's own message is shown,
 * instead of its JSON in a tab.
 */
export async function openPdf(url: string, text: { preparing: string; failed: string }): Promise<void> {
  const win = window.open('', '_blank');
  if (win) {
    win.document.title = text.preparing;
    win.document.body.textContent = `${text.preparing}...`;
  }
  try {
    const res = await fetch(url, { credentials: 'same-origin' });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      win?.close();
      notify.error(text.failed, body?.message ?? `The server answered ${res.status}`);
      return;
    }
    const blob = URL.createObjectURL(await res.blob());
    if (win) win.location.href = blob;
    else window.open(blob, '_blank', 'noopener');
  } catch (err) {
    win?.close();
    notify.error(text.failed, err instanceof Error ? err.message : String(err));
  }
}
