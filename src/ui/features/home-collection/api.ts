import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { homeCollectionApi as api } from '@shared/api/home-collection';
import type {
  AreaInput,
  BookingCreate,
  BookingListQuery,
  CalendarUpdate,
  DayBoard,
  Reschedule,
} from '@shared/schemas/home-collection';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of home collection: every change refreshes bookings, slots and the day board. */
export const homeKeys = {
  all: ['home-collection'] as const,
  bookings: (q: Partial<BookingListQuery>) => ['home-collection', 'bookings', q] as const,
  slots: (date: string) => ['home-collection', 'slots', date] as const,
  board: (date: string) => ['home-collection', 'board', date] as const,
  calendar: ['home-collection', 'calendar'] as const,
  areas: ['home-collection', 'areas'] as const,
  phlebotomists: ['home-collection', 'phlebotomists'] as const,
};

export function useBookings(q: BookingListQuery) {
  return useQuery({
    queryKey: homeKeys.bookings(q),
    queryFn: ({ signal }) => call(api.list, { query: q }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSlots(date: string, enabled: boolean) {
  return useQuery({
    queryKey: homeKeys.slots(date),
    queryFn: ({ signal }) => call(api.slots, { query: { date } }, signal).then((r) => r.slots),
    enabled: enabled && /^\d{4}-\d{2}-\d{2}$/.test(date),
  });
}

export function useDayBoard(date: string) {
  return useQuery({
    queryKey: homeKeys.board(date),
    queryFn: async ({ signal }): Promise<DayBoard> => (await call(api.board, { query: { date } }, signal)).board,
    placeholderData: keepPreviousData,
  });
}

export function useCalendar() {
  return useQuery({
    queryKey: homeKeys.calendar,
    queryFn: ({ signal }) => call(api.calendar, {}, signal).then((r) => r.calendar),
  });
}

export function usePhlebotomists(enabled = true) {
  return useQuery({
    queryKey: homeKeys.phlebotomists,
    queryFn: ({ signal }) => call(api.phlebotomists, {}, signal).then((r) => r.phlebotomists),
    enabled,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: homeKeys.all });
}

export function useCreateBookingMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: BookingCreate) => call(api.create, { body }).then((r) => r.booking),
    onSuccess: (b) => {
      notify.success('Visit booked', `${b.booking_number}: ${b.patient_name}, ${b.slot_time}`);
      return invalidate();
    },
  });
}

export function useRescheduleMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Reschedule }) =>
      call(api.reschedule, { params: { id }, body }).then((r) => r.booking),
    onSuccess: (b) => {
      notify.success('Visit rescheduled', `${b.booking_number}: now ${b.slot_time}`);
      return invalidate();
    },
  });
}

export function useCloseBookingMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, kind, reason }: { id: number; kind: 'cancel' | 'no_show'; reason: string }) =>
      kind === 'cancel'
        ? call(api.cancel, { params: { id }, body: { reason } }).then((r) => r.booking)
        : call(api.noShow, { params: { id }, body: { reason } }).then((r) => r.booking),
    onSuccess: (b) => {
      notify.success(b.status === 'cancelled' ? 'Visit cancelled' : 'No-show recorded', b.booking_number);
      return invalidate();
    },
  });
}

export function useUnlockMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, new_code }: { id: number; new_code: boolean }) =>
      call(api.unlock, { params: { id }, body: { new_code } }).then((r) => r.booking),
    onSuccess: (b, { new_code }) => {
      notify.success(
        'Visit unlocked',
        `${b.booking_number}: ${new_code ? 'the patient is sent a new visit code' : 'the visit code works again'}`,
      );
      return invalidate();
    },
  });
}

export function useAssignMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, phlebotomist_id }: { id: number; phlebotomist_id: number }) =>
      call(api.assign, { params: { id }, body: { phlebotomist_id } }).then((r) => r.booking),
    onSuccess: (b) => {
      notify.success('Phlebotomist assigned', `${b.booking_number}: ${b.phlebotomist_name ?? ''}`);
      return invalidate();
    },
  });
}

export function useAreas() {
  return useQuery({
    queryKey: homeKeys.areas,
    queryFn: ({ signal }) => call(api.areas, {}, signal).then((r) => r.areas),
  });
}

export function useUpdateCalendarMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ body }: { body: CalendarUpdate; saved: string }) =>
      call(api.updateCalendar, { body }).then((r) => r.calendar),
    onSuccess: (_c, { saved }) => {
      notify.success('Settings saved', saved);
      return invalidate();
    },
  });
}

export function useSaveAreaMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: AreaInput }) =>
      (id === null ? call(api.createArea, { body }) : call(api.updateArea, { params: { id }, body })).then(
        (r) => r.area,
      ),
    onSuccess: (a, { id }) => {
      notify.success(id === null ? 'Area added' : 'Area saved', `${a.name}: ${a.pin_codes.join(', ')}`);
      return invalidate();
    },
  });
}
