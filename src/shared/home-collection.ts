/** Pure rules of home collection: the slot grid of a lab's calendar and the statuses of a visit. */

export const BOOKING_STATUSES = [
  'booked',
  'started',
  'collected',
  'refused',
  'failed',
  'cancelled',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** A visit not yet closed: it holds its slot and may be rescheduled, cancelled or marked a no-show. */
/** Wrong visit codes a visit takes before it is locked (the desk unlocks it, with a new code). */
export const OTP_ATTEMPTS = 5;

export const OPEN_STATUSES: readonly BookingStatus[] = ['booked'];

export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmmOf = (m: number): string =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export interface SlotGrid {
  slot_minutes: number;
  first_slot: string;
  last_slot: string;
}

/** The start times of a day's slots, first to last, every slot_minutes. */
export function slotTimes(c: SlotGrid): string[] {
  const out: string[] = [];
  for (let m = minutesOf(c.first_slot); m <= minutesOf(c.last_slot); m += c.slot_minutes) out.push(hhmmOf(m));
  return out;
}

export const isSlotTime = (c: SlotGrid, time: string): boolean => slotTimes(c).includes(time);

/** The keys a booking's place is counted under (the slot, and the phlebotomist's share of it). */
export const slotKey = (date: string, time: string, phlebotomistId?: number | null): string =>
  phlebotomistId ? `${date}|${time}|${phlebotomistId}` : `${date}|${time}`;

/** An Indian pin code: six digits, the first not 0. */
export const PIN_CODE = /^[1-9]\d{5}$/;

/** A slot's start as a minute stamp (YYYYMMDDHHMM) of the lab's clock, to compare with localMinuteStamp. */
export const slotStamp = (date: string, time: string): string => `${date.replace(/-/g, '')}${time.replace(':', '')}`;
