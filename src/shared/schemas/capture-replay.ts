import { z } from 'zod';
import { UNMATCHED_REASONS } from './connections.js';
import { profileKeySchema } from './instrument-profiles.js';

/**
 * Replaying a capture on a connection: what the machine's bytes (a file from its logger, or text
 * pasted) would become, before anything is stored. See docs/instruments.md.
 */
export const MAX_CAPTURE_CHARS = 1_000_000;

export const captureReplayBody = z.object({
  capture: z
    .string({ error: 'capture must be the text of a capture' })
    .min(1, 'capture is empty: paste the machine’s messages or choose a file')
    .max(MAX_CAPTURE_CHARS, `capture must be at most ${MAX_CAPTURE_CHARS.toLocaleString('en-IN')} characters`),
});
export type CaptureReplayBody = z.infer<typeof captureReplayBody>;

export const REPLAY_OUTCOMES = ['entered', 'unmatched', 'ignored', 'skipped'] as const;
export const REPLAY_OUTCOME_LABELS: Record<(typeof REPLAY_OUTCOMES)[number], string> = {
  entered: 'Would be entered',
  unmatched: 'To the Unmatched queue',
  ignored: 'Ignored',
  skipped: 'Not a result',
};

export const replayRowSchema = z.object({
  /** The message of the capture it came in (1-based). */
  message: z.number().int(),
  specimen_id: z.string(),
  code: z.string(),
  value: z.string(),
  unit: z.string(),
  flag: z.string(),
  outcome: z.enum(REPLAY_OUTCOMES),
  /** The Unmatched queue's reason, when it would go there. */
  reason: z.enum(UNMATCHED_REASONS).nullable(),
  detail: z.string(),
  sample_code: z.string().nullable(),
  test_name: z.string().nullable(),
});
export type ReplayRow = z.infer<typeof replayRowSchema>;

export const captureReplaySchema = z.object({
  protocol: z.enum(['astm', 'hl7']),
  profile: profileKeySchema,
  messages: z.number().int(),
  rows: z.array(replayRowSchema),
  /** Problems with the capture itself (frames that fail their check, messages cut short). */
  notes: z.array(z.string()),
});
export type CaptureReplay = z.infer<typeof captureReplaySchema>;
