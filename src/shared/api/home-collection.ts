import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  opResultSchema,
  inTransitSchema,
  receiveSchema,
  syncSchema,
  tubeSchema,
  visitSchema,
  phoneVisitSchema,
  assignSchema,
  boardQuery,
  dayQuery,
  dayBoardSchema,
  phlebotomistSchema,
  areaInputSchema,
  areaSchema,
  bookingCreateSchema,
  bookingListQuery,
  bookingPageSchema,
  bookingSchema,
  calendarSchema,
  calendarUpdateSchema,
  noShowSchema,
  reasonSchema,
  rescheduleSchema,
  slotSchema,
  slotsQuery,
  unlockSchema,
} from '../schemas/home-collection.js';
import { defineRoute } from './contract.js';

const oneBooking = z.object({ booking: bookingSchema });
const oneArea = z.object({ area: areaSchema });

/**
 * Home collection at the desk: the slot calendar, areas by pin code and bookings, all under
 * manage_home_collection (the desk that books and dispatches the visits).
 */
export const homeCollectionApi = {
  calendar: defineRoute({
    method: 'GET',
    path: '/api/home-collection/calendar',
    access: 'manage_home_collection',
    response: z.object({ calendar: calendarSchema }),
  }),
  updateCalendar: defineRoute({
    method: 'PUT',
    path: '/api/home-collection/calendar',
    access: 'manage_home_collection',
    body: calendarUpdateSchema,
    response: z.object({ calendar: calendarSchema }),
  }),
  areas: defineRoute({
    method: 'GET',
    path: '/api/home-collection/areas',
    access: 'manage_home_collection',
    response: z.object({ areas: z.array(areaSchema) }),
  }),
  createArea: defineRoute({
    method: 'POST',
    path: '/api/home-collection/areas',
    access: 'manage_home_collection',
    body: areaInputSchema,
    response: oneArea,
    status: 201,
  }),
  updateArea: defineRoute({
    method: 'PUT',
    path: '/api/home-collection/areas/:id',
    access: 'manage_home_collection',
    params: idParam,
    body: areaInputSchema,
    response: oneArea,
  }),
  slots: defineRoute({
    method: 'GET',
    path: '/api/home-collection/slots',
    access: 'manage_home_collection',
    query: slotsQuery,
    response: z.object({ slots: z.array(slotSchema) }),
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/home-collection/bookings',
    access: 'manage_home_collection',
    query: bookingListQuery,
    response: bookingPageSchema,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/home-collection/bookings/:id',
    access: 'manage_home_collection',
    params: idParam,
    response: oneBooking,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/home-collection/bookings',
    access: 'manage_home_collection',
    body: bookingCreateSchema,
    response: oneBooking,
    status: 201,
  }),
  reschedule: defineRoute({
    method: 'POST',
    path: '/api/home-collection/bookings/:id/reschedule',
    access: 'manage_home_collection',
    params: idParam,
    body: rescheduleSchema,
    response: oneBooking,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/home-collection/bookings/:id/cancel',
    access: 'manage_home_collection',
    params: idParam,
    body: reasonSchema,
    response: oneBooking,
  }),
  noShow: defineRoute({
    method: 'POST',
    path: '/api/home-collection/bookings/:id/no-show',
    access: 'manage_home_collection',
    params: idParam,
    body: noShowSchema,
    response: oneBooking,
  }),
  unlock: defineRoute({
    method: 'POST',
    path: '/api/home-collection/bookings/:id/unlock',
    access: 'manage_home_collection',
    params: idParam,
    body: unlockSchema,
    response: oneBooking,
  }),
  phlebotomists: defineRoute({
    method: 'GET',
    path: '/api/home-collection/phlebotomists',
    access: 'manage_home_collection',
    response: z.object({ phlebotomists: z.array(phlebotomistSchema) }),
  }),
  assign: defineRoute({
    method: 'POST',
    path: '/api/home-collection/bookings/:id/assign',
    access: 'manage_home_collection',
    params: idParam,
    body: assignSchema,
    response: oneBooking,
  }),
  board: defineRoute({
    method: 'GET',
    path: '/api/home-collection/board',
    access: 'manage_home_collection',
    query: boardQuery,
    response: z.object({ board: dayBoardSchema }),
  }),
  visit: defineRoute({
    method: 'GET',
    path: '/api/home-collection/bookings/:id/visit',
    access: 'manage_home_collection',
    params: idParam,
    response: z.object({ visit: visitSchema }),
  }),
  /** The tubes drawn at home that the lab has not scanned in yet, oldest draw first: the receive bench. */
  inTransit: defineRoute({
    method: 'GET',
    path: '/api/home-collection/tubes/in-transit',
    access: 'manage_samples',
    response: inTransitSchema,
  }),
  /** The received-at-lab scan of a tube drawn at home: the lab's bench, who receive samples. */
  receive: defineRoute({
    method: 'POST',
    path: '/api/home-collection/tubes/receive',
    access: 'manage_samples',
    body: receiveSchema,
    response: z.object({ tube: tubeSchema }),
  }),
};

/** The phlebotomist's phone: their own visits and the queue of what they recorded, under collect_at_home. */
export const homeVisitsApi = {
  day: defineRoute({
    method: 'GET',
    path: '/api/home-visits',
    access: 'collect_at_home',
    query: dayQuery,
    response: z.object({ date: z.string(), visits: z.array(phoneVisitSchema) }),
  }),
  sync: defineRoute({
    method: 'POST',
    path: '/api/home-visits/sync',
    access: 'collect_at_home',
    body: syncSchema,
    response: z.object({ results: z.array(opResultSchema) }),
    bodyLimit: 256 * 1024,
  }),
};
