import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Home, Plus } from 'lucide-react';
import type { BookingStatus } from '@shared/home-collection';
import { reasonSchema, type Booking } from '@shared/schemas/home-collection';
import {
  Badge,
  Button,
  Card,
  CardHeader,
  DateText,
  EmptyState,
  ErrorPanel,
  FormDialog,
  FormField,
  LoadingState,
  Money,
  Textarea,
  type BadgeTone,
} from '@/components';
import { applyServerErrors, formError } from '@/lib/forms';
import { useCancelHomeVisitMutation, useHomeBookings, useHomeOffer } from '../homeApi';
import { FastingNotice } from './HomeOfferPicker';
import { HomeVisitDialog } from './HomeVisitDialog';

/** A visit's status in the patient's words, with the colour every lims screen gives that meaning. */
const STATUS: Record<BookingStatus, [string, BadgeTone]> = {
  booked: ['Booked', 'amber'],
  started: ['Phlebotomist at your door', 'blue'],
  collected: ['Samples collected', 'green'],
  refused: ['Not collected', 'red'],
  failed: ['Not collected', 'red'],
  cancelled: ['Cancelled', 'grey'],
  no_show: ['Missed', 'grey'],
};

function CancelVisitDialog({ booking, onClose }: { booking: Booking | null; onClose: () => void }) {
  const cancel = useCancelHomeVisitMutation();
  const form = useForm({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' }, mode: 'onBlur' });
  const close = () => {
    form.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(({ reason }) =>
    cancel.mutate(
      { id: booking!.id, reason },
      {
        onSuccess: close,
        onError: (e: unknown) => applyServerErrors(e, form.setError, (p) => (p === 'reason' ? 'reason' : undefined)),
      },
    ),
  );
  return (
    <FormDialog
      open={booking !== null}
      onOpenChange={(o) => !o && close()}
      size="sm"
      title="Cancel Home Visit"
      description={
        booking ? (
          <>
            Cancel your visit of <DateText value={booking.slot_date} /> at {booking.slot_time} ({booking.booking_number}
            )?
          </>
        ) : undefined
      }
      busy={cancel.isPending}
      form={{ id: 'portal-cancel-visit-form', onSubmit, columns: 1 }}
      submitLabel="Cancel Visit"
      busyLabel="Cancelling..."
      submitVariant="destructive"
      cancelLabel="Keep Visit"
      error={formError(form)}
    >
      <FormField label="Reason" required error={form.formState.errors.reason?.message}>
        <Textarea rows={2} placeholder="e.g. Travelling that day" {...form.register('reason')} />
      </FormField>
    </FormDialog>
  );
}

function VisitItem({ b, onCancel }: { b: Booking; onCancel: (() => void) | null }) {
  const [label, tone] = STATUS[b.status];
  return (
    <li className="grid gap-2 px-4 py-3" data-testid="home-visit">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            <DateText value={b.slot_date} /> at <span className="tabular-nums">{b.slot_time}</span>
          </p>
          <p className="text-[13px] text-slate-600">
            {b.booking_number} · {b.items.map((i) => i.name).join(', ')}
          </p>
        </div>
        <Badge tone={tone}>{label}</Badge>
      </div>
      <p className="text-[13px] text-slate-700 [overflow-wrap:anywhere]">
        {b.address}, {b.pin_code}
      </p>
      {/* The quote is what the phlebotomist collects: once the visit is over it is owed no more. */}
      {(b.status === 'booked' || b.status === 'started') && (
        <div className="flex flex-wrap items-center justify-between gap-2 text-[13px] text-slate-700">
          <span>
            To pay at the visit: <Money rupees={b.quoted_amount} className="font-medium" />
            {b.phlebotomist_name && <> · Phlebotomist: {b.phlebotomist_name}</>}
          </span>
          {onCancel && (
            <Button variant="outline" size="sm" onClick={onCancel}>
              Cancel Visit
            </Button>
          )}
        </div>
      )}
      {b.status === 'booked' && b.fasting_hours !== null && <FastingNotice hours={b.fasting_hours} />}
      {b.reason && (b.status === 'cancelled' || b.status === 'refused' || b.status === 'failed') && (
        <p className="text-[13px] text-slate-600">Reason: {b.reason}</p>
      )}
    </li>
  );
}

/**
 * Home Collection in the portal: the patient's visits with their status, and booking and cancelling
 * while the lab takes bookings from the portal. Left out altogether when the lab does not and the
 * patient has no visit to see.
 */
export function HomeVisits() {
  const offer = useHomeOffer();
  const bookings = useHomeBookings();
  const [booking, setBooking] = useState(false);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const on = offer.data?.portal_booking === true;
  if (!on && !bookings.data?.length) return null;

  return (
    <Card>
      <CardHeader
        title="Home Collection"
        description={on ? 'Book a phlebotomist to collect your samples at home' : 'Your home visits'}
        actions={
          on && (
            <Button size="sm" onClick={() => setBooking(true)}>
              <Plus />
              Book Home Visit
            </Button>
          )
        }
      />
      {bookings.isPending ? (
        <LoadingState text="Loading your home visits..." />
      ) : bookings.isError ? (
        <ErrorPanel
          title="Could not load your home visits"
          error={bookings.error}
          onRetry={() => void bookings.refetch()}
          className="m-4"
        />
      ) : !bookings.data.length ? (
        <EmptyState
          title="No home visits yet"
          hint="Book a visit and it appears here with its status."
          icon={<Home />}
        />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="My home visits">
          {bookings.data.map((b) => (
            <VisitItem key={b.id} b={b} onCancel={on && b.status === 'booked' ? () => setCancelling(b) : null} />
          ))}
        </ul>
      )}
      {on && <HomeVisitDialog open={booking} onOpenChange={setBooking} items={offer.data?.items ?? []} />}
      <CancelVisitDialog booking={cancelling} onClose={() => setCancelling(null)} />
    </Card>
  );
}
