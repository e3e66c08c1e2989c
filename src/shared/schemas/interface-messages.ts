import { z } from 'zod';
import { optionalText, pageQuery, pagedShape, requiredText, strictNumber } from './common.js';

/**
 * What the analyzer interfaces received: the message log and the Unmatched queue of values lims
 * could not place (Machine Integration, /machines). The connections themselves: connections.ts.
 */
export const MESSAGE_STATUSES = [
  'processed',
  'partial',
  'unmatched',
  'rejected',
  'incomplete',
  'answered',
  'sent',
  'failed',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  processed: 'Processed',
  partial: 'Partly unmatched',
  unmatched: 'Unmatched',
  rejected: 'Rejected',
  incomplete: 'Incomplete (dropped)',
  answered: 'Query answered',
  sent: 'Sent',
  failed: 'Send failed',
};

export const UNMATCHED_REASONS = ['unknown_sample', 'unmapped_code', 'unit_mismatch', 'refused'] as const;
export type UnmatchedReason = (typeof UNMATCHED_REASONS)[number];
export const UNMATCHED_REASON_LABELS: Record<UnmatchedReason, string> = {
  unknown_sample: 'Unknown sample',
  unmapped_code: 'Code not mapped',
  unit_mismatch: 'Unit differs',
  refused: 'Refused',
};
export const UNMATCHED_STATUSES = ['open', 'assigned', 'discarded'] as const;
export type UnmatchedStatus = (typeof UNMATCHED_STATUSES)[number];

const positiveId = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .positive(),
  );

export const messageListQuery = pageQuery.extend({
  connection_id: positiveId('connection_id').optional(),
  status: z.enum(MESSAGE_STATUSES, { error: `status must be one of ${MESSAGE_STATUSES.join(', ')}` }).optional(),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const interfaceMessageSchema = z.object({
  id: z.number().int(),
  connection_id: z.number().int(),
  connection_name: z.string(),
  direction: z.enum(['in', 'out']),
  protocol: z.string(),
  size: z.number().int(),
  status: z.enum(MESSAGE_STATUSES),
  message_type: z.string().nullable(),
  results_count: z.number().int(),
  unmatched_count: z.number().int(),
  /** Values whose code the code map ignores: kept in the raw message, neither entered nor queued. */
  ignored_count: z.number().int(),
  ack: z.string().nullable(),
  error: z.string().nullable(),
  received_at: z.string(),
});
export type InterfaceMessage = z.infer<typeof interfaceMessageSchema>;
export const interfaceMessagePageSchema = z.object({ messages: z.array(interfaceMessageSchema), ...pagedShape });
/** One message with its raw text (the bytes as latin1; control characters shown as <STX> etc.). */
export const interfaceMessageDetailSchema = interfaceMessageSchema.extend({ raw: z.string() });

export const unmatchedListQuery = pageQuery.extend({
  status: z
    .enum(UNMATCHED_STATUSES, { error: `status must be one of ${UNMATCHED_STATUSES.join(', ')}` })
    .default('open'),
  connection_id: positiveId('connection_id').optional(),
});
export type UnmatchedListQuery = z.infer<typeof unmatchedListQuery>;

export const unmatchedSchema = z.object({
  id: z.number().int(),
  connection_id: z.number().int(),
  connection_name: z.string(),
  message_id: z.number().int(),
  specimen_id: z.string(),
  code: z.string(),
  value: z.string(),
  unit: z.string().nullable(),
  flag: z.string().nullable(),
  reason: z.enum(UNMATCHED_REASONS),
  detail: z.string(),
  status: z.enum(UNMATCHED_STATUSES),
  result_id: z.number().int().nullable(),
  discard_reason: z.string().nullable(),
  resolved_at: z.string().nullable(),
  created_at: z.string(),
  /** The sample the specimen ID names, when there is one (for the assign form). */
  sample_id: z.number().int().nullable(),
  sample_code: z.string().nullable(),
  /** The catalogue test the code map gives the code, when mapped. */
  test_id: z.number().int().nullable(),
});
export type Unmatched = z.infer<typeof unmatchedSchema>;
export const unmatchedPageSchema = z.object({ unmatched: z.array(unmatchedSchema), ...pagedShape });

/**
 * Which sample and test an unmatched value belongs to. The sample by its id, or as staff know it:
 * its barcode or sample code (`sample`), looked up as the machine's specimen ID is.
 */
export const unmatchedAssignSchema = z
  .object({
    sample_id: positiveId('sample_id').optional(),
    sample: optionalText(100, 'Sample'),
    test_id: positiveId('test_id'),
  })
  .superRefine((b, ctx) => {
    if (!b.sample_id && !b.sample)
      ctx.addIssue({ code: 'custom', path: ['sample'], message: 'Sample is required: its barcode or sample ID' });
  });
export type UnmatchedAssign = z.infer<typeof unmatchedAssignSchema>;

export const unmatchedDiscardSchema = z.object({ reason: requiredText('Reason', 500) });
