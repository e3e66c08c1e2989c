import type { BookingStatus } from '@shared/home-collection';
import type { Booking } from '@shared/schemas/home-collection';
import { Badge, type BadgeTone } from '@/components';

export const STATUS_LABELS: Record<BookingStatus, string> = {
  booked: 'Booked',
  started: 'Started',
  collected: 'Collected',
  refused: 'Refused',
  failed: 'Failed draw',
  cancelled: 'Cancelled',
  no_show: 'No-show',
};

/** Amber waiting, blue under way, green done, red refused or failed, grey cancelled or no-show (docs/ui.md's colours). */
const TONES: Record<BookingStatus, BadgeTone> = {
  booked: 'amber',
  started: 'blue',
  collected: 'green',
  refused: 'red',
  failed: 'red',
  cancelled: 'grey',
  no_show: 'grey',
};

export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** Under the status: what the phone met that the desk had changed (a visit cancelled while it was offline), and a lock by wrong codes. */
export function BookingNotes({ booking: b }: { booking: Booking }) {
  return (
    <>
      {b.sync_conflict && <span className="mt-1 block text-[13px] text-red-700">Phone: {b.sync_conflict}</span>}
      {b.otp_locked && b.status === 'booked' && (
        <span className="mt-1 block text-[13px] text-red-700">Locked: 5 wrong visit codes</span>
      )}
    </>
  );
}

/** A visit the patient booked from the portal: the desk may want to call before dispatching it. */
export function SourceBadge({ booking }: { booking: Booking }) {
  return booking.source === 'portal' ? <Badge tone="blue">Booked online</Badge> : null;
}
