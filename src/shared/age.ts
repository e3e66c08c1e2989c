/** Age in whole years from an ISO date (YYYY-MM-DD): one year less if this year's birthday has not come. */
export function ageFromDob(dob: string, today: Date = new Date()): number | null {
  // Plain slicing: this runs for every patient of every list and look-up.
  if (dob.length !== 10 || dob[4] !== '-' || dob[7] !== '-') return null;
  const y = Number(dob.slice(0, 4));
  const mo = Number(dob.slice(5, 7));
  const d = Number(dob.slice(8, 10));
  if (!Number.isInteger(y) || !Number.isInteger(mo) || !Number.isInteger(d)) return null;
  const tm = today.getMonth() + 1;
  const td = today.getDate();
  let age = today.getFullYear() - y;
  if (tm < mo || (tm === mo && td < d)) age -= 1;
  return age;
}

/** True when YYYY-MM-DD is a real calendar date. */
export function isRealDate(iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const dt = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    dt.getUTCFullYear() === Number(m[1]) && dt.getUTCMonth() + 1 === Number(m[2]) && dt.getUTCDate() === Number(m[3])
  );
}

/** Today's date as YYYY-MM-DD in the given IANA time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
