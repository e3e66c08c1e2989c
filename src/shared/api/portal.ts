import { z } from 'zod';
import { downloadQuery, idParam, okResponse } from '../schemas/common.js';
import {
  portalAppointmentSchema,
  portalBillSchema,
  portalLoginSchema,
  portalPatientSchema,
  portalPinIssuedSchema,
  portalPinStatusSchema,
  portalResultSchema,
} from '../schemas/portal.js';
import {
  bookingSchema,
  portalBookingSchema,
  portalHomeOfferSchema,
  reasonSchema,
  slotSchema,
  slotsQuery,
} from '../schemas/home-collection.js';
import { defineRoute, fileResponse } from './contract.js';

const thePatient = z.object({ patient: portalPatientSchema });

/**
 * The patient portal (spec 2.14). Its routes are `public` to the staff gate: each is guarded by the
 * portal's own session instead (src/server/routes/portal.ts), and the cookie is sent only to /api/portal.
 */
export const portalApi = {
  /** The lab the portal belongs to (its name and contact), shown before and after sign-in. */
  lab: defineRoute({
    method: 'GET',
    path: '/api/portal/lab',
    access: 'public',
    response: z.object({ name: z.string(), phone: z.string().nullable(), address: z.string().nullable() }),
  }),
  login: defineRoute({
    method: 'POST',
    path: '/api/portal/login',
    access: 'public',
    body: portalLoginSchema,
    response: thePatient,
  }),
  /** Works with an ended session too, so the browser is always left signed out. */
  logout: defineRoute({
    method: 'POST',
    path: '/api/portal/logout',
    access: 'public',
    response: okResponse,
  }),
  me: defineRoute({ method: 'GET', path: '/api/portal/me', access: 'public', response: thePatient }),
  appointments: defineRoute({
    method: 'GET',
    path: '/api/portal/appointments',
    access: 'public',
    response: z.object({ appointments: z.array(portalAppointmentSchema) }),
  }),
  results: defineRoute({
    method: 'GET',
    path: '/api/portal/results',
    access: 'public',
    response: z.object({ results: z.array(portalResultSchema) }),
  }),
  bills: defineRoute({
    method: 'GET',
    path: '/api/portal/bills',
    access: 'public',
    response: z.object({ bills: z.array(portalBillSchema) }),
  }),
  billPdf: defineRoute({
    method: 'GET',
    path: '/api/portal/bills/:id/pdf',
    access: 'public',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
  visitReportPdf: defineRoute({
    method: 'GET',
    path: '/api/portal/bills/:id/report.pdf',
    access: 'public',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
  reportPdf: defineRoute({
    method: 'GET',
    path: '/api/portal/samples/:id/report.pdf',
    access: 'public',
    params: idParam,
    query: downloadQuery,
    response: fileResponse('application/pdf'),
  }),
  /**
   * Home collection from the portal, when the lab allows it (409 PORTAL_BOOKING_OFF otherwise). The
   * offer answers either way: portal_booking false and no items tells the portal to leave it out.
   */
  homeOffer: defineRoute({
    method: 'GET',
    path: '/api/portal/home-collection',
    access: 'public',
    response: portalHomeOfferSchema,
  }),
  homeSlots: defineRoute({
    method: 'GET',
    path: '/api/portal/home-collection/slots',
    access: 'public',
    query: slotsQuery,
    response: z.object({ slots: z.array(slotSchema) }),
  }),
  homeBookings: defineRoute({
    method: 'GET',
    path: '/api/portal/home-collection/bookings',
    access: 'public',
    response: z.object({ bookings: z.array(bookingSchema) }),
  }),
  homeBook: defineRoute({
    method: 'POST',
    path: '/api/portal/home-collection/bookings',
    access: 'public',
    body: portalBookingSchema,
    response: z.object({ booking: bookingSchema }),
    status: 201,
  }),
  /** The patient cancels their own open visit before its slot begins (409 SLOT_BEGUN after). */
  homeCancel: defineRoute({
    method: 'POST',
    path: '/api/portal/home-collection/bookings/:id/cancel',
    access: 'public',
    params: idParam,
    body: reasonSchema,
    response: z.object({ booking: bookingSchema }),
  }),
};

/** Staff: issue or reset a patient's portal PIN (shown once), and whether one is issued. */
export const portalPinApi = {
  issue: defineRoute({
    method: 'POST',
    path: '/api/patients/:id/portal-pin',
    access: 'manage_patients',
    params: idParam,
    response: portalPinIssuedSchema,
    status: 201,
  }),
  status: defineRoute({
    method: 'GET',
    path: '/api/patients/:id/portal-pin',
    access: 'manage_patients',
    params: idParam,
    response: portalPinStatusSchema,
  }),
};
