import type { BookingStatus } from '@shared/home-collection';
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
