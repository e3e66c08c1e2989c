import { z } from 'zod';
import { SAMPLE_PRIORITIES, SAMPLE_STATUSES, SAMPLE_TYPES, BARCODE_PATTERN } from '../samples.js';
import { optionalText, pageQuery, requiredText } from './common.js';

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} must be an id` })
    .int(`${label} must be an id`)
    .positive(`${label} must be an id`);
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
  patient_id: z.coerce.number().int().positive().optional(),
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

export interface SampleTestRef {
  id: number;
  name: string;
  code: string;
}

export interface SampleHistoryEntry {
  id: number;
  from_status: string | null;
  to_status: string;
  changed_by: number | null;
  changed_by_name: string | null;
  location: string | null;
  notes: string | null;
  created_at: string;
}

export interface Sample {
  id: number;
  sample_id: string;
  barcode: string | null;
  patient_id: number;
  first_name: string;
  last_name: string;
  patient_number: string;
  patient_gender: string | null;
  patient_dob: string;
  sample_type: string;
  collection_date: string | null;
  eta: string | null;
  collector_id: number | null;
  collector_first_name: string | null;
  collector_last_name: string | null;
  priority: string;
  status: string;
  location: string | null;
  notes: string | null;
  rejection_reason: string | null;
  bill_id: number | null;
  test_ids: number[];
  tests: SampleTestRef[];
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  history?: SampleHistoryEntry[];
}

export interface SampleSummary {
  total: number;
  pending: number;
  collected: number;
  processing: number;
  completed: number;
  rejected: number;
  with_barcode: number;
  without_barcode: number;
  completion_rate: number;
  /** Mean minutes from collection to completion over completed samples; null when none has both times. */
  avg_processing_minutes: number | null;
  /** How many completed samples that mean is taken over. */
  timed_completed: number;
}

export interface CollectionLocation {
  id: number;
  name: string;
  kind: string;
  position: number;
  is_active: boolean;
}
