import type { Db } from '../db/connection.js';
import { organizationTimezone } from '../settings/service.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { stateOfGstin } from '../../shared/gst.js';
import type { MonthWindow } from './repository.js';

/** A calendar month of the lab ('YYYY-MM') as UTC bounds and lab days, in the lab's time zone. */
export async function monthWindow(db: Db, organizationId: number, month: string) {
  const timeZone = await organizationTimezone(db, organizationId);
  const firstDay = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  const w: MonthWindow = {
    organizationId,
    fromUtc: startOfLocalDayUtc(timeZone, firstDay).toISOString(),
    toUtc: startOfLocalDayUtc(timeZone, next).toISOString(),
    firstDay,
    lastDay: addDays(next, -1),
  };
  return { w, timeZone, labDay: (iso: string) => localDate(timeZone, new Date(iso)) };
}

/** Whether a bill was taxed across states: its payer's state differs from the lab's (taxParties' rule). */
export function billInterState(
  labState: string | null,
  payer: { payer_state_code: string | null; payer_gstin: string | null },
): boolean {
  const place = payer.payer_state_code ?? stateOfGstin(payer.payer_gstin) ?? labState;
  return !!labState && !!place && place !== labState;
}
