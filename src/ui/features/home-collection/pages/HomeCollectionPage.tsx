import { useMemo, useState } from 'react';
import { Ban, CalendarClock, LockOpen, Plus, Route, UserCheck, UserX } from 'lucide-react';
import { localDate } from '@shared/time';
import { BOOKING_STATUSES } from '@shared/home-collection';
import type { Booking } from '@shared/schemas/home-collection';
import {
  Button,
  Card,
  clearFiltersEmpty,
  FormField,
  Input,
  LinkButton,
  ListTable,
  Money,
  ScreenHeader,
  type Column,
  type RowAction,
} from '@/components';
import { useLabFormat } from '@/lib/format';
import { choiceFilter, usePagedList, type ListFilter } from '@/lib/usePagedList';
import { useBookings } from '../api';
import { BookingFormDialog } from '../components/BookingFormDialog';
import { AssignDialog, CloseVisitDialog, RescheduleDialog, UnlockDialog } from '../components/BookingActionDialogs';
import { BookingNotes, BookingStatusBadge, SourceBadge, STATUS_LABELS } from '../components/bookingParts';

const FILTERS: ListFilter[] = [choiceFilter('status', 'Status', 'All Statuses', BOOKING_STATUSES, STATUS_LABELS)];

const columns: Column<Booking>[] = [
  {
    key: 'slot',
    header: 'Slot',
    cell: (b) => (
      <div className="whitespace-nowrap">
        <span className="block font-medium tabular-nums">{b.slot_time}</span>
        <span className="block text-[13px] text-slate-600">{b.booking_number}</span>
        {/* Phones have no room for the Status column: the badge goes under the slot. */}
        <span className="mt-1 block md:hidden">
          <BookingStatusBadge status={b.status} />
          <BookingNotes booking={b} />
        </span>
      </div>
    ),
  },
  {
    key: 'patient',
    header: 'Patient',
    cell: (b) => (
      <div className="min-w-0">
        <span className="block font-medium text-slate-900">
          {b.patient_name} <SourceBadge booking={b} />
        </span>
        <span className="hidden text-[13px] text-slate-600 md:block">
          {[b.patient_code, b.patient_phone].filter(Boolean).join(' · ')}
        </span>
        <span className="block text-[13px] text-slate-600 md:hidden">
          {b.area_name} · {b.phlebotomist_name ?? 'Unassigned'}
        </span>
      </div>
    ),
  },
  {
    key: 'where',
    header: 'Address',
    hideOnMobile: true,
    cell: (b) => (
      <div className="min-w-0 text-[13px]">
        <span className="block">{b.address}</span>
        <span className="block text-slate-600">
          {b.area_name} {b.pin_code}
          {b.map_link && (
            <>
              {' · '}
              <a href={b.map_link} target="_blank" rel="noreferrer noopener" className="text-blue-700 underline">
                Map
              </a>
            </>
          )}
        </span>
      </div>
    ),
  },
  {
    key: 'tests',
    header: 'Tests',
    hideOnMobile: true,
    cell: (b) => (
      <div className="text-[13px]">
        {b.items.map((i) => i.name).join(', ')}
        {b.fasting_hours && <span className="block text-amber-800">Fasting {b.fasting_hours} h</span>}
      </div>
    ),
  },
  {
    key: 'phlebotomist',
    header: 'Phlebotomist',
    hideOnMobile: true,
    cell: (b) => b.phlebotomist_name ?? <span className="text-slate-500">Unassigned</span>,
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    hideOnMobile: true,
    cell: (b) => <Money rupees={b.quoted_amount} />,
  },
  {
    key: 'status',
    header: 'Status',
    hideOnMobile: true,
    cell: (b) => (
      <div className="min-w-0">
        <BookingStatusBadge status={b.status} />
        <BookingNotes booking={b} />
      </div>
    ),
  },
];

type Open = { kind: 'reschedule' | 'cancel' | 'no_show' | 'assign' | 'unlock'; booking: Booking } | null;

/** Home Collection: the visits of a day, booked at the desk or from the portal. */
export default function HomeCollectionScreen() {
  const today = localDate(useLabFormat().timeZone);
  const extra = useMemo(() => ({ date: today }), [today]);
  const list = usePagedList({ filters: FILTERS, pageSizes: [10, 20, 50], defaultLimit: 20, extra });
  const date = String(list.state.date);
  const bookings = useBookings({
    date: date || undefined,
    status: list.apiFilters.status as Booking['status'] | undefined,
    search: list.search || undefined,
    page: list.page,
    limit: list.limit,
  });
  const [booking, setBooking] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const isOpen = (b: Booking) => b.status === 'booked';

  const actions: RowAction<Booking>[] = [
    {
      label: (b) => `Unlock ${b.booking_number}`,
      icon: <LockOpen />,
      onClick: (b) => setOpen({ kind: 'unlock', booking: b }),
      hidden: (b) => !isOpen(b) || !b.otp_locked,
    },
    {
      label: (b) => `${b.phlebotomist_id ? 'Reassign' : 'Assign'} ${b.booking_number}`,
      icon: <UserCheck />,
      onClick: (b) => setOpen({ kind: 'assign', booking: b }),
      hidden: (b) => !isOpen(b),
    },
    {
      label: (b) => `Reschedule ${b.booking_number}`,
      icon: <CalendarClock />,
      onClick: (b) => setOpen({ kind: 'reschedule', booking: b }),
      hidden: (b) => !isOpen(b),
    },
    {
      label: (b) => `Record no-show ${b.booking_number}`,
      icon: <UserX />,
      onClick: (b) => setOpen({ kind: 'no_show', booking: b }),
      hidden: (b) => !isOpen(b),
    },
    {
      label: (b) => `Cancel ${b.booking_number}`,
      icon: <Ban />,
      onClick: (b) => setOpen({ kind: 'cancel', booking: b }),
      hidden: (b) => !isOpen(b),
      destructive: true,
    },
  ];

  const add = (
    <Button onClick={() => setBooking(true)}>
      <Plus />
      Book Visit
    </Button>
  );

  return (
    <>
      <ScreenHeader
        actions={
          <>
            <LinkButton to={`/home-collection/board?date=${date}`} variant="outline">
              <Route />
              Day Board
            </LinkButton>
            {add}
          </>
        }
      />
      <Card className="min-w-0">
        <ListTable
          list={list}
          query={bookings}
          rows={(p) => p.bookings}
          search={{ placeholder: 'Search by patient, booking number or pin code', label: 'Search bookings' }}
          caption="Home visits"
          itemLabel="visits"
          columns={columns}
          getRowId={(b) => b.id}
          errorTitle="Error Loading Visits"
          empty={{
            title: 'No visits booked',
            ...clearFiltersEmpty(list),
            hint: 'Book a visit for a patient: it appears here and on the day board.',
            action: add,
          }}
          rowActions={actions}
          filterRows={
            <FormField label="Date" className="sm:w-48">
              <Input type="date" value={date} onChange={(e) => list.setState({ date: e.target.value, page: 1 })} />
            </FormField>
          }
        />
      </Card>
      <BookingFormDialog open={booking} onOpenChange={setBooking} date={date || today} />
      <UnlockDialog booking={open?.kind === 'unlock' ? open.booking : null} onOpenChange={close} />
      <AssignDialog booking={open?.kind === 'assign' ? open.booking : null} onOpenChange={close} />
      <RescheduleDialog booking={open?.kind === 'reschedule' ? open.booking : null} onOpenChange={close} />
      <CloseVisitDialog kind="cancel" booking={open?.kind === 'cancel' ? open.booking : null} onOpenChange={close} />
      <CloseVisitDialog kind="no_show" booking={open?.kind === 'no_show' ? open.booking : null} onOpenChange={close} />
    </>
  );
}
