import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PortalBooking } from '@shared/schemas/home-collection';
import { portalApi } from '@shared/api/portal';
import { notify } from '@/lib/notify';
import { portalCall, portalKeys } from './api';

/**
 * Home collection in the portal: what the lab offers, the patient's own visits, a day's slots, and
 * booking and cancelling. Keyed under ['portal'] with the rest, so logout drops it too.
 */
export const homeKeys = {
  offer: [...portalKeys.all, 'home', 'offer'] as const,
  bookings: [...portalKeys.all, 'home', 'bookings'] as const,
  slots: (date: string) => [...portalKeys.all, 'home', 'slots', date] as const,
};

/** Whether the lab takes bookings from the portal, and the tests it offers (none while it does not). */
export function useHomeOffer() {
  return useQuery({
    queryKey: homeKeys.offer,
    queryFn: ({ signal }) => portalCall(portalApi.homeOffer, {}, signal),
    staleTime: 5 * 60_000,
  });
}

export function useHomeBookings() {
  return useQuery({
    queryKey: homeKeys.bookings,
    queryFn: ({ signal }) => portalCall(portalApi.homeBookings, {}, signal).then((r) => r.bookings),
  });
}

/** The day's slots with their free places; refetched on focus, since other patients and the desk book too. */
export function useHomeSlots(date: string, enabled: boolean) {
  return useQuery({
    queryKey: homeKeys.slots(date),
    queryFn: ({ signal }) => portalCall(portalApi.homeSlots, { query: { date } }, signal).then((r) => r.slots),
    enabled: enabled && /^\d{4}-\d{2}-\d{2}$/.test(date),
    retry: false,
  });
}

export function useBookHomeVisitMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PortalBooking) => portalCall(portalApi.homeBook, { body }).then((r) => r.booking),
    onSuccess: (b) => {
      void qc.invalidateQueries({ queryKey: homeKeys.bookings });
      void qc.invalidateQueries({ queryKey: homeKeys.slots(b.slot_date) });
      notify.success('Home Visit Booked', `Booking ${b.booking_number}: you will get an SMS with the visit code.`);
    },
  });
}

export function useCancelHomeVisitMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      portalCall(portalApi.homeCancel, { params: { id }, body: { reason } }).then((r) => r.booking),
    onSuccess: (b) => {
      void qc.invalidateQueries({ queryKey: homeKeys.bookings });
      void qc.invalidateQueries({ queryKey: homeKeys.slots(b.slot_date) });
      notify.success('Home Visit Cancelled', `Booking ${b.booking_number} is cancelled.`);
    },
  });
}
