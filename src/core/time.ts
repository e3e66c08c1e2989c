/** Lab-local calendar helpers: the lab's time zone decides what "today" and a bill date are. */

/** Intl formatters are costly to build; one per zone is kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Year, month, day, hour, minute, second of instant d in the lab's zone (24-hour, zero-padded). */
export function localParts(timeZone: string, d: Date) {
  const o: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(d)) o[p.type] = p.value;
  return { y: o.year!, mo: o.month!, d: o.day!, h: o.hour!, mi: o.minute!, s: o.second! };
}

/** YYYY-MM-DD in the lab's zone. */
export function localDate(timeZone: string, d: Date = new Date()): string {
  const p = localParts(timeZone, d);
  return `${p.y}-${p.mo}-${p.d}`;
}

/** YYYYMMDDHHmm in the lab's zone (bill numbers). */
export function localMinuteStamp(timeZone: string, d: Date = new Date()): string {
  const p = localParts(timeZone, d);
  return `${p.y}${p.mo}${p.d}${p.h}${p.mi}`;
}

/** Offset of the zone from UTC at instant d, in ms. */
function offsetMs(timeZone: string, d: Date): number {
  const p = localParts(timeZone, d);
  const asUtc = Date.UTC(Number(p.y), Number(p.mo) - 1, Number(p.d), Number(p.h), Number(p.mi), Number(p.s));
  return asUtc - Math.floor(d.getTime() / 1000) * 1000;
}

/** The UTC instant at which the lab-local calendar day `ymd` begins. */
export function startOfLocalDayUtc(timeZone: string, ymd: string): Date {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const guess = new Date(Date.UTC(y, m - 1, d));
  const first = new Date(guess.getTime() - offsetMs(timeZone, guess));
  return new Date(guess.getTime() - offsetMs(timeZone, first));
}

export function addDays(ymd: string, days: number): string {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
