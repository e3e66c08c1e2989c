import { z } from 'zod';
import { billItemInput } from './bills.js';
import { patientCreateSchema } from './patients.js';
import {
  idField,
  isoDate,
  optionalText,
  pageQuery,
  pagedShape,
  requiredText,
  rupeeAmount,
  strictNumber,
} from './common.js';
import { BOOKING_STATUSES, HH_MM, PIN_CODE, minutesOf } from '../home-collection.js';

const hhmm = (label: string) =>
  z.string({ error: `${label} must be a time (HH:MM)` }).regex(HH_MM, `${label} must be a time (HH:MM)`);
const pinCode = z
  .string({ error: 'Pin code must be six digits' })
  .trim()
  .regex(PIN_CODE, 'Pin code must be six digits (not starting with 0)');
const whole = (label: string, min: number, max: number) =>
  strictNumber(
    z
      .number({ error: `${label} must be a whole number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );

/** The fasting one test needs before a draw. */
export const fastingEntrySchema = z.object({ test_id: idField('test_id'), hours: whole('Fasting hours', 1, 24) });

/** The lab's slot calendar, and the fasting each test needs before a draw. */
export const calendarUpdateSchema = z
  .object({
    slot_minutes: whole('Slot length', 10, 240),
    first_slot: hhmm('First slot'),
    last_slot: hhmm('Last slot'),
    slot_capacity: whole('Visits per slot', 1, 500),
    per_phlebotomist: whole('Visits per phlebotomist in a slot', 1, 20),
    portal_booking: z.boolean({ error: 'portal_booking must be true or false' }).default(false),
    /** The lab's receive scan asks for the temperature of each tube drawn at home. */
    record_temperature: z.boolean({ error: 'record_temperature must be true or false' }).default(false),
    fasting: z.array(fastingEntrySchema).max(500).default([]),
  })
  .refine((c) => minutesOf(c.last_slot) >= minutesOf(c.first_slot), {
    path: ['last_slot'],
    message: 'Last slot must not be before the first slot',
  });
export type CalendarUpdate = z.infer<typeof calendarUpdateSchema>;

export const calendarSchema = z.object({
  configured: z.boolean(),
  slot_minutes: z.number(),
  first_slot: z.string(),
  last_slot: z.string(),
  slot_capacity: z.number(),
  per_phlebotomist: z.number(),
  portal_booking: z.boolean(),
  record_temperature: z.boolean(),
  fasting: z.array(z.object({ test_id: z.number(), test_name: z.string(), hours: z.number() })),
});
export type Calendar = z.infer<typeof calendarSchema>;

export const areaInputSchema = z.object({
  name: requiredText('Area name', 80),
  pin_codes: z.array(pinCode, { error: 'pin_codes must be a list' }).min(1, 'Give at least one pin code').max(200),
  is_active: z.boolean({ error: 'is_active must be true or false' }).default(true),
});
export type AreaInput = z.infer<typeof areaInputSchema>;

export const areaSchema = z.object({
  id: z.number(),
  name: z.string(),
  pin_codes: z.array(z.string()),
  is_active: z.boolean(),
});
export type Area = z.infer<typeof areaSchema>;

export const slotsQuery = z.object({ date: isoDate('date') });
export const slotSchema = z.object({
  time: z.string(),
  capacity: z.number(),
  booked: z.number(),
  available: z.number(),
});
export type Slot = z.infer<typeof slotSchema>;

const mapLink = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .url({ protocol: /^https?$/, error: 'Map link must be an http(s) address' })
    .max(500, 'Map link must be at most 500 characters')
    .nullable()
    .optional(),
);

const bookingWhere = {
  address: requiredText('Address', 500),
  pin_code: pinCode,
  map_link: mapLink,
  slot_date: isoDate('Slot date'),
  slot_time: hhmm('Slot time'),
};

/** A booking from the desk: a patient registered (patient_id) or new (patient), the visit and the lines. */
export const bookingCreateSchema = z
  .object({
    patient_id: idField('patient_id').optional(),
    patient: patientCreateSchema.optional(),
    ...bookingWhere,
    items: z
      .array(billItemInput.pick({ item_type: true, item_id: true, qty: true }), { error: 'items must be a list' })
      .min(1, 'Please add at least one test, profile, or package')
      .max(50),
    payer_id: idField('payer_id').nullable().optional(),
    notes: optionalText(500),
  })
  .refine((b) => (b.patient === undefined) !== (b.patient_id === undefined), {
    path: ['patient'],
    message: 'Give the new patient, or the patient_id of a patient already registered (one of the two)',
  });
export type BookingCreate = z.infer<typeof bookingCreateSchema>;

export const rescheduleSchema = z.object({
  slot_date: bookingWhere.slot_date,
  slot_time: bookingWhere.slot_time,
  reason: requiredText('Reason', 300),
});
export type Reschedule = z.infer<typeof rescheduleSchema>;

export const reasonSchema = z.object({ reason: requiredText('Reason', 300) });
export const noShowSchema = z.object({ reason: optionalText(300) });
/** Unlock a visit locked by wrong codes; new_code (the default) sends the patient a new code and ends the old one. */
export const unlockSchema = z.object({
  new_code: z.boolean({ error: 'new_code must be true or false' }).default(true),
});
export type Unlock = z.infer<typeof unlockSchema>;

export const bookingSchema = z.object({
  id: z.number(),
  booking_number: z.string(),
  patient_id: z.number(),
  patient_name: z.string(),
  patient_code: z.string(),
  patient_phone: z.string().nullable(),
  area_id: z.number(),
  area_name: z.string(),
  address: z.string(),
  pin_code: z.string(),
  map_link: z.string().nullable(),
  slot_date: z.string(),
  slot_time: z.string(),
  status: z.enum(BOOKING_STATUSES),
  phlebotomist_id: z.number().nullable(),
  phlebotomist_name: z.string().nullable(),
  payer_id: z.number().nullable(),
  items: z.array(z.object({ item_type: z.string(), item_id: z.number(), qty: z.number(), name: z.string() })),
  /** Rupees, as OP Bill would charge now (the payer's prices when there is a payer). */
  quoted_amount: z.number(),
  fasting_hours: z.number().nullable(),
  notes: z.string().nullable(),
  source: z.enum(['desk', 'portal']),
  reason: z.string().nullable(),
  bill_id: z.number().nullable(),
  /** What the phone met that the desk had changed (a visit cancelled while it was offline). */
  sync_conflict: z.string().nullable(),
  /** Wrong visit codes locked the visit: the desk unlocks it (POST .../unlock). */
  otp_locked: z.boolean(),
  created_at: z.string(),
});
export type Booking = z.infer<typeof bookingSchema>;

export const bookingListQuery = pageQuery.extend({
  date: isoDate('date').optional(),
  status: z.enum(BOOKING_STATUSES, { error: `status must be one of ${BOOKING_STATUSES.join(', ')}` }).optional(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});
export type BookingListQuery = z.infer<typeof bookingListQuery>;
export const bookingPageSchema = z.object({ bookings: z.array(bookingSchema), ...pagedShape });

export const assignSchema = z.object({ phlebotomist_id: idField('phlebotomist_id') });

export const phlebotomistSchema = z.object({ id: z.number(), name: z.string(), role: z.string() });
export type Phlebotomist = z.infer<typeof phlebotomistSchema>;

export const boardQuery = z.object({ date: isoDate('date') });
/** The phone's day: the lab's today unless a date is given. */
export const dayQuery = z.object({ date: isoDate('date').optional() });
export const dayBoardSchema = z.object({
  date: z.string(),
  /** The day's visits (not cancelled) by area, in slot order. */
  areas: z.array(z.object({ area_id: z.number(), area_name: z.string(), visits: z.array(bookingSchema) })),
  /** Each phlebotomist's route: their visits in slot order. */
  routes: z.array(
    z.object({ phlebotomist_id: z.number(), phlebotomist_name: z.string(), visits: z.array(bookingSchema) }),
  ),
  /** Open visits nobody is assigned to yet. */
  unassigned: z.array(bookingSchema),
});
export type DayBoard = z.infer<typeof dayBoardSchema>;

// ---- The visit on the phone ------------------------------------------------------------------

const at = (label: string) => z.iso.datetime({ offset: true, error: `${label} must be a date and time (ISO 8601)` });
const opBase = {
  /** The phone's own id of the operation: the same id sent again is the same operation. */
  op_id: z
    .string({ error: 'op_id is required' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'op_id must be 8 to 64 letters, digits, - or _'),
  booking_id: idField('booking_id'),
  at: at('at'),
};
const coordinate = (label: string, limit: number) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .min(-limit, `${label} must be between -${limit} and ${limit}`)
      .max(limit, `${label} must be between -${limit} and ${limit}`),
  );

export const VISIT_PAYMENT_METHODS = ['cash', 'upi'] as const;

export const visitOpSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ ...opBase, kind: z.literal('start'), otp: z.string().regex(/^\d{6}$/, 'The visit code is 6 digits') }),
    z.object({
      ...opBase,
      kind: z.literal('arrive'),
      latitude: coordinate('latitude', 90).nullable().optional(),
      longitude: coordinate('longitude', 180).nullable().optional(),
    }),
    z.object({
      ...opBase,
      kind: z.literal('collect'),
      tubes: z
        .array(z.object({ barcode: requiredText('Barcode', 40), collected_at: at('collected_at') }))
        .min(1, 'Record at least one tube')
        .max(20),
    }),
    z
      .object({
        ...opBase,
        kind: z.literal('pay'),
        method: z.enum(VISIT_PAYMENT_METHODS, { error: 'method must be cash or upi' }),
        amount: rupeeAmount('Amount'),
        reference: optionalText(100),
      })
      .refine((p) => p.method !== 'upi' || !!p.reference, {
        path: ['reference'],
        message: 'A UPI payment needs its reference',
      }),
    z.object({ ...opBase, kind: z.literal('refuse'), reason: requiredText('Reason', 300) }),
    z.object({ ...opBase, kind: z.literal('fail'), reason: requiredText('Reason', 300) }),
  ],
  { error: 'kind must be start, arrive, collect, pay, refuse or fail' },
);
export type VisitOp = z.infer<typeof visitOpSchema>;

export const syncSchema = z.object({ ops: z.array(visitOpSchema, { error: 'ops must be a list' }).min(1).max(100) });
export type SyncBody = z.infer<typeof syncSchema>;

export const tubeSchema = z.object({
  barcode: z.string(),
  container: z.string(),
  sample_type: z.string(),
  collected_at: z.string().nullable(),
  sample_id: z.number().nullable(),
  received_at: z.string().nullable(),
  received_temperature: z.number().nullable(),
});
export type Tube = z.infer<typeof tubeSchema>;

/** A visit as the phone keeps it: the booking, its tubes with their reserved barcodes, the money. */
export const visitSchema = bookingSchema.extend({
  tubes: z.array(tubeSchema),
  started_at: z.string().nullable(),
  arrived_at: z.string().nullable(),
  collected_at: z.string().nullable(),
  /** Rupees: the bill's amount once collected (else the quote) and what is paid. */
  amount_due: z.number(),
  paid: z.number(),
});
export type Visit = z.infer<typeof visitSchema>;

/** The phone's day: each tube with its label's barcode drawn (SVG), so labels print offline. */
export const phoneVisitSchema = visitSchema.extend({
  tubes: z.array(tubeSchema.extend({ label_svg: z.string(), container_label: z.string() })),
});
export type PhoneVisit = z.infer<typeof phoneVisitSchema>;

export const OP_OUTCOMES = ['applied', 'refused', 'conflict'] as const;
export const opResultSchema = z.object({
  op_id: z.string(),
  outcome: z.enum(OP_OUTCOMES),
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type OpResult = z.infer<typeof opResultSchema>;

export const receiveSchema = z.object({
  barcode: requiredText('Barcode', 40),
  temperature: strictNumber(
    z
      .number({ error: 'Temperature must be a number of °C' })
      .min(-90, 'Temperature must be at least -90 °C')
      .max(60, 'Temperature must be at most 60 °C'),
  )
    .nullable()
    .optional(),
});
export type ReceiveInput = z.infer<typeof receiveSchema>;

/** A tube drawn at home and not yet scanned in at the lab, with whose it is and who drew it. */
export const transitTubeSchema = tubeSchema.extend({
  booking_id: z.number(),
  booking_number: z.string(),
  patient_name: z.string(),
  patient_code: z.string(),
  phlebotomist_name: z.string().nullable(),
  sample_code: z.string().nullable(),
});
export type TransitTube = z.infer<typeof transitTubeSchema>;

/** The receive bench's list: the tubes on their way, and whether the lab records their temperature. */
export const inTransitSchema = z.object({
  record_temperature: z.boolean(),
  tubes: z.array(transitTubeSchema),
});
export type InTransit = z.infer<typeof inTransitSchema>;

/** A patient booking their own visit from the portal: the same visit, for themselves, self-paid. */
export const portalBookingSchema = z.object({
  ...bookingWhere,
  items: z
    .array(billItemInput.pick({ item_type: true, item_id: true, qty: true }), { error: 'items must be a list' })
    .min(1, 'Please add at least one test, profile, or package')
    .max(20),
  notes: optionalText(500),
});
export type PortalBooking = z.infer<typeof portalBookingSchema>;

/** A test, profile or package a patient may book a home visit for, at the lab's price (rupees). */
export const homeOfferItemSchema = z.object({
  item_type: z.enum(['test', 'profile', 'package']),
  item_id: z.number(),
  name: z.string(),
  code: z.string(),
  price: z.number(),
  /** The longest fasting its tests need before the draw, or null. */
  fasting_hours: z.number().nullable(),
});
export type HomeOfferItem = z.infer<typeof homeOfferItemSchema>;

/** What the portal offers for home collection: nothing while the lab takes bookings at the desk only. */
export const portalHomeOfferSchema = z.object({
  portal_booking: z.boolean(),
  items: z.array(homeOfferItemSchema),
});
export type PortalHomeOffer = z.infer<typeof portalHomeOfferSchema>;
