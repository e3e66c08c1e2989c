import { z } from 'zod';
import { SAMPLE_PRIORITIES, SAMPLE_STATUSES, SAMPLE_TYPES, BARCODE_PATTERN } from '../samples.js';
import { optionalText, pageQuery, requiredText, strictNumber } from './common.js';

const id = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an id` })
      .int(`${label} must be an id`)
      .positive(`${label} must be an id`),
  );
const sampleType = z.enum(SAMPLE_TYPES, { error: `Sample type must be one of ${SAMPLE_TYPES.join(', ')}` });
const priority = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.enum(SAMPLE_PRIORITIES, { error: `Priority must be one of ${SAMPLE_PRIORITIES.join(', ')}` }),
);
const nullableId = (label: string) =>
  z.preprocess((v) => (v === '' || v === 0 ? null : v), id(label).nullable().optional());

export const barcodeSchema = z
  .string({ error: 'Barcode is required' })
  .trim()
  .min(1, 'Please enter a barcode')
  .regex(BARCODE_PATTERN, 'The barcode format is invalid (expected BC + 2 letters + 11 digits)');

export const sampleCreateSchema = z.object({
  patient_id: id('patient_id'),
  sample_type: sampleType,
  collector_id: nullableId('collector_id'),
  location: optionalText(100),
  notes: optionalText(1000),
  priority: priority.default('normal'),
  test_ids: z
    .array(id('test_ids'), { error: 'test_ids must be a list of test ids' })
    .max(100)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  bill_id: nullableId('bill_id'),
  /** "collected" (the default: the sample is in hand, a barcode is assigned) or "pending" (ordered, not yet drawn). */
  status: z.enum(['collected', 'pending'], { error: 'A new sample is collected or pending' }).default('collected'),
});
export type SampleCreate = z.infer<typeof sampleCreateSchema>;

export const sampleUpdateSchema = z.object({
  sample_type: sampleType.optional(),
  collector_id: nullableId('collector_id'),
  location: optionalText(100),
  notes: optionalText(1000),
  priority: priority.optional(),
  test_ids: z
    .array(id('test_ids'))
    .max(100)
    .optional()
    .transform((ids) => (ids ? [...new Set(ids)] : ids)),
  /** Sets the barcode of a sample that has none (spec: Set barcode). */
  barcode: barcodeSchema.optional(),
  /** Condition of the specimen on receipt (e.g. "Acceptable", "Mildly haemolysed"), printed on the report. */
  receipt_condition: optionalText(200, 'Condition on receipt'),
});
export type SampleUpdate = z.infer<typeof sampleUpdateSchema>;

export const sampleStatusSchema = z
  .object({
    status: z.enum(SAMPLE_STATUSES, { error: `Status must be one of ${SAMPLE_STATUSES.join(', ')}` }),
    notes: optionalText(1000),
    location: optionalText(100),
  })
  .refine((b) => b.status !== 'rejected' || (b.notes ?? '').length > 0, {
    path: ['notes'],
    message: 'A rejected sample needs a reason',
  });
export type SampleStatusChange = z.infer<typeof sampleStatusSchema>;

export const sampleListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(50),
  search: z.string().trim().max(100).optional(),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(SAMPLE_STATUSES, { error: `status must be one of ${SAMPLE_STATUSES.join(', ')} or all` }).optional(),
  ),
  priority: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(SAMPLE_PRIORITIES, { error: `priority must be one of ${SAMPLE_PRIORITIES.join(', ')} or all` }).optional(),
  ),
  patient_id: strictNumber(z.number().int().positive().optional()),
  /** to_report: completed and not printed or downloaded yet (the "to report" list). */
  report: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(['to_report'], { error: 'report must be to_report or all' }).optional(),
  ),
});
export type SampleListQuery = z.infer<typeof sampleListQuery>;

export const locationSchema = z.object({
  name: requiredText('Name', 100),
  kind: z
    .enum(['home', 'lab', 'centre', 'external', 'other'], {
      error: 'Kind must be home, lab, centre, external or other',
    })
    .default('other'),
  is_active: z.boolean().default(true),
});
export const locationUpdateSchema = locationSchema.partial();

export const sampleTestRefSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
});
export type SampleTestRef = z.infer<typeof sampleTestRefSchema>;

export const sampleHistoryEntrySchema = z.object({
  id: z.number(),
  from_status: z.string().nullable(),
  to_status: z.string(),
  changed_by: z.number().nullable(),
  changed_by_name: z.string().nullable(),
  location: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
});
export type SampleHistoryEntry = z.infer<typeof sampleHistoryEntrySchema>;

export const sampleSchema = z.object({
  id: z.number(),
  sample_id: z.string(),
  barcode: z.string().nullable(),
  patient_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  patient_number: z.string(),
  patient_gender: z.string().nullable(),
  patient_dob: z.string(),
  sample_type: z.string(),
  collection_date: z.string().nullable(),
  eta: z.string().nullable(),
  collector_id: z.number().nullable(),
  collector_first_name: z.string().nullable(),
  collector_last_name: z.string().nullable(),
  priority: z.string(),
  status: z.string(),
  location: z.string().nullable(),
  notes: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  receipt_condition: z.string().nullable(),
  bill_id: z.number().nullable(),
  /** The bill that ordered it (a sample ordered by a bill is one tube of its tests). */
  bill_number: z.string().nullable(),
  /** The rejected sample this one was drawn again for (its id and code), or null. */
  recollect_of: z.number().nullable(),
  recollect_of_code: z.string().nullable(),
  /** The sample that replaced this rejected one (its id and code), or null. */
  recollected_as: z.number().nullable(),
  recollected_as_code: z.string().nullable(),
  /** The tube (src/shared/tubes.ts), when a bill ordered it or the collector said. */
  container: z.string().nullable(),
  /** When its report was released (all results verified); null until then. */
  reported_at: z.string().nullable(),
  /** How many times its report was printed or downloaded. */
  report_print_count: z.number(),
  test_ids: z.array(z.number()),
  tests: z.array(sampleTestRefSchema),
  completed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  history: z.array(sampleHistoryEntrySchema).optional(),
});
export type Sample = z.infer<typeof sampleSchema>;

/** Collect several pending tubes in one action (a patient's tubes after one draw). */
export const sampleCollectSchema = z.object({
  ids: z
    .array(strictNumber(z.number().int().positive()), { error: 'ids must be a list of sample ids' })
    .min(1, 'Choose at least one sample')
    .max(50, 'At most 50 samples at a time')
    .transform((ids) => [...new Set(ids)]),
  location: optionalText(100),
  /** Who drew them; the signed-in user when left out. */
  collector_id: nullableId('collector_id'),
});
export type SampleCollect = z.infer<typeof sampleCollectSchema>;

/** Recollect a rejected sample: a new tube for the same tests (why, and where it will be drawn). */
export const sampleRecollectSchema = z.object({
  notes: optionalText(1000),
  location: optionalText(100),
});
export type SampleRecollect = z.infer<typeof sampleRecollectSchema>;

export const sampleSummarySchema = z.object({
  total: z.number(),
  pending: z.number(),
  collected: z.number(),
  processing: z.number(),
  completed: z.number(),
  rejected: z.number(),
  with_barcode: z.number(),
  without_barcode: z.number(),
  completion_rate: z.number(),
  /** Mean minutes from collection to completion over completed samples, null when none has both times. */
  avg_processing_minutes: z.number().nullable(),
  /** How many completed samples that mean is taken over. */
  timed_completed: z.number(),
});
export type SampleSummary = z.infer<typeof sampleSummarySchema>;

export const collectionLocationSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.string(),
  position: z.number(),
  is_active: z.boolean(),
});
export type CollectionLocation = z.infer<typeof collectionLocationSchema>;
