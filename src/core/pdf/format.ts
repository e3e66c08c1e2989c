/** Dates on printed documents follow the lab's date format and time zone; times are 24-hour. */
function pick(iso: string, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const o: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(iso))) o[p.type] = p.value;
  return o as { year: string; month: string; day: string; hour: string; minute: string };
}

export function formatLabDate(iso: string, dateFormat: string, timeZone: string): string {
  const p = pick(iso, timeZone);
  if (dateFormat === 'MM/DD/YYYY') return `${p.month}/${p.day}/${p.year}`;
  if (dateFormat === 'YYYY-MM-DD') return `${p.year}-${p.month}-${p.day}`;
  return `${p.day}/${p.month}/${p.year}`;
}

export function formatLabDateTime(iso: string, dateFormat: string, timeZone: string): string {
  const p = pick(iso, timeZone);
  return `${formatLabDate(iso, dateFormat, timeZone)} ${p.hour}:${p.minute}`;
}
