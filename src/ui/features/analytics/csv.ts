/** A CSV cell: quoted when it holds a comma, quote or line break; formula-looking text neutralised. */
function cell(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Sections of rows, separated by a blank line, as one CSV text (RFC 4180 line ends). */
export function toCsv(sections: { title: string; rows: (string | number | null)[][] }[]): string {
  return sections.map((s) => [[s.title], ...s.rows].map((r) => r.map(cell).join(',')).join('\r\n')).join('\r\n\r\n');
}

/** Hands a text to the browser as a downloaded file. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
