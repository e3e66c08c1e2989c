import { z } from 'zod';
import { idField, isoDate, optionalText, requiredText, strictNumber } from './common.js';

/**
 * Autoverification: the lab's rules for releasing a result without a person, as a versioned
 * document, and the decisions they took. A result is released only if every condition that
 * applies to its test holds; each condition is a checkbox or a number the pathologist sets.
 */

export const AUTOVERIFY_MODES = ['shadow', 'live'] as const;
export type AutoverifyMode = (typeof AUTOVERIFY_MODES)[number];
export const RULE_SET_STATUSES = ['draft', 'approved'] as const;
export const DECISIONS = ['release', 'hold'] as const;
export type AutoverifyDecisionKind = (typeof DECISIONS)[number];

/** The names of the conditions, as decisions cite them in their reasons. */
export const AUTOVERIFY_RULES = [
  'stopped',
  'covered',
  'status',
  'amended',
  'numeric',
  'reportable',
  'range',
  'critical',
  'delta',
  'qc',
  'instrument_flag',
  'sample_quality',
  'patient_group',
  'consistency',
  'calculated_inputs',
] as const;
export type AutoverifyRule = (typeof AUTOVERIFY_RULES)[number];

const finite = (label: string) => strictNumber(z.number({ error: `${label} must be a number` }).finite());
const positive = (label: string) =>
  strictNumber(z.number({ error: `${label} must be a number` }).positive(`${label} must be more than 0`));

const limits = (label: string) =>
  z
    .object({ low: finite(`${label} low`).nullable(), high: finite(`${label} high`).nullable() })
    .refine((l) => l.low === null || l.high === null || l.low <= l.high, {
      message: `${label}: low must not be above high`,
      path: ['high'],
    });

/**
 * What must hold for a release. `reportable`: the analytical measurement range (null limits: the
 * test's plausible range; a value sent as "<5" or ">500" is outside it). `range`: inside the
 * patient's reference range, inside the lab's wider auto-release limits, or not checked. `delta`:
 * the change against the patient's last verified value, % or absolute (null: the test's own delta
 * rule). `qc_within_hours`: every control level of the test on that machine ran within that many
 * hours before the result and was not rejected (null: QC not asked).
 */
export const conditionsSchema = z.object({
  numeric_only: z.boolean(),
  reportable: z.boolean(),
  reportable_limits: limits('Reportable range').nullable(),
  range: z.enum(['reference', 'auto_release', 'off']),
  auto_release_limits: limits('Auto-release range').nullable(),
  no_critical: z.boolean(),
  delta: z.object({ kind: z.enum(['percent', 'absolute']), limit: positive('Delta limit') }).nullable(),
  qc_within_hours: strictNumber(z.number().int().min(1, 'QC age must be at least 1 hour').max(720)).nullable(),
  no_instrument_flag: z.boolean(),
  no_interference: z.boolean(),
  calculated_from_released: z.boolean(),
});
export type AutoverifyConditions = z.infer<typeof conditionsSchema>;

const overrideSchema = conditionsSchema.partial();

export const testRuleSchema = z.object({
  test_id: idField('test_id'),
  /** false: this test is never released by the rules (always a person). */
  enabled: z.boolean(),
  conditions: overrideSchema.default({}),
});
export const departmentRuleSchema = z.object({
  department: requiredText('Department', 100),
  enabled: z.boolean(),
  conditions: overrideSchema.default({}),
});
/** A group of patients whose results always wait for a person: newborns (age below N days), say. */
export const excludedGroupSchema = z.object({
  label: requiredText('Group', 100),
  max_age_days: strictNumber(z.number().int().min(1).max(36_500)),
});
/** Between two tests of one sample: "total bilirubin >= direct bilirubin". */
export const consistencyCheckSchema = z
  .object({
    label: requiredText('Check', 200),
    left_test_id: idField('left_test_id'),
    op: z.enum(['>=', '<=', '>', '<']),
    right_test_id: idField('right_test_id'),
  })
  .refine((c) => c.left_test_id !== c.right_test_id, {
    message: 'A check compares two tests',
    path: ['right_test_id'],
  });

export const ruleDocumentSchema = z.object({
  /** 'all': every test not switched off by its department or itself; 'listed': only those named. */
  applies_to: z.enum(['all', 'listed']),
  defaults: conditionsSchema,
  departments: z.array(departmentRuleSchema).max(100).default([]),
  tests: z.array(testRuleSchema).max(2000).default([]),
  excluded_groups: z.array(excludedGroupSchema).max(20).default([]),
  consistency: z.array(consistencyCheckSchema).max(200).default([]),
});
export type RuleDocument = z.infer<typeof ruleDocumentSchema>;

/** The lab's default rules: a starting point a pathologist edits, never active until approved. */
export function defaultRuleDocument(): RuleDocument {
  return {
    applies_to: 'all',
    defaults: {
      numeric_only: true,
      reportable: true,
      reportable_limits: null,
      range: 'reference',
      auto_release_limits: null,
      no_critical: true,
      delta: null,
      qc_within_hours: 24,
      no_instrument_flag: true,
      no_interference: true,
      calculated_from_released: true,
    },
    departments: [],
    tests: [],
    excluded_groups: [{ label: 'Newborns', max_age_days: 28 }],
    consistency: [],
  };
}

export const ruleSetCreateSchema = z.object({
  name: requiredText('Name', 100),
  notes: optionalText(1000, 'Notes'),
  /** Omitted: the lab's default rules. */
  document: ruleDocumentSchema.optional(),
});
export type RuleSetCreate = z.infer<typeof ruleSetCreateSchema>;

export const ruleSetUpdateSchema = z.object({
  name: requiredText('Name', 100).optional(),
  notes: optionalText(1000, 'Notes'),
  document: ruleDocumentSchema.optional(),
});
export type RuleSetUpdate = z.infer<typeof ruleSetUpdateSchema>;

export const activationInputSchema = z.object({
  mode: z.enum(AUTOVERIFY_MODES),
  /** From this moment (ISO 8601); omitted: now. */
  active_from: z.iso.datetime({ offset: true, error: 'Active from must be a date and time (ISO 8601)' }).optional(),
});
export type ActivationInput = z.infer<typeof activationInputSchema>;

export const stopInputSchema = z.object({
  /** Omitted: the whole lab stops. */
  test_id: idField('test_id').optional(),
  reason: requiredText('Reason', 500),
});
export type StopInput = z.infer<typeof stopInputSchema>;
export const resumeInputSchema = z.object({ test_id: idField('test_id').optional() });
export type ResumeInput = z.infer<typeof resumeInputSchema>;

export const activationSchema = z.object({
  id: z.number().int(),
  rule_set_id: z.number().int(),
  version: z.number().int(),
  mode: z.enum(AUTOVERIFY_MODES),
  active_from: z.string(),
  activated_by_name: z.string().nullable(),
  created_at: z.string(),
});
export type Activation = z.infer<typeof activationSchema>;

export const ruleSetSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  name: z.string(),
  status: z.enum(RULE_SET_STATUSES),
  notes: z.string().nullable(),
  document: ruleDocumentSchema,
  based_on: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  approved_by_name: z.string().nullable(),
  approved_at: z.string().nullable(),
  activations: z.array(activationSchema),
});
export type RuleSet = z.infer<typeof ruleSetSchema>;

export const stopSchema = z.object({
  id: z.number().int(),
  test_id: z.number().int().nullable(),
  test_name: z.string().nullable(),
  reason: z.string(),
  stopped_by_name: z.string().nullable(),
  stopped_at: z.string(),
});
export type AutoverifyStop = z.infer<typeof stopSchema>;

/** What autoverification does now: the version in force and how, and the stops. */
export const autoverifyStateSchema = z.object({
  in_force: activationSchema.nullable(),
  /** The next activation already scheduled, if any. */
  scheduled: activationSchema.nullable(),
  stops: z.array(stopSchema),
});
export type AutoverifyState = z.infer<typeof autoverifyStateSchema>;

export const decisionReasonSchema = z.object({
  rule: z.enum(AUTOVERIFY_RULES),
  passed: z.boolean(),
  text: z.string(),
});
export type DecisionReason = z.infer<typeof decisionReasonSchema>;

export const decisionSchema = z.object({
  id: z.number().int(),
  result_id: z.number().int(),
  test_id: z.number().int(),
  rule_set_id: z.number().int(),
  version: z.number().int(),
  mode: z.enum(AUTOVERIFY_MODES),
  decision: z.enum(DECISIONS),
  /** The release happened (live mode and nothing refused it). */
  released: z.boolean(),
  reasons: z.array(decisionReasonSchema),
  decided_at: z.string(),
});
export type AutoverifyDecision = z.infer<typeof decisionSchema>;

/** `?result_ids=1,2,3`: the results of one screen's page (at most 200). */
export const latestDecisionsQuerySchema = z.object({
  result_ids: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? [] : v.split(',').map((x) => x.trim())) : v),
    z
      .array(idField('result_ids'), { error: 'result_ids must be ids separated by commas' })
      .min(1, 'result_ids must name at least one result')
      .max(200, 'result_ids must name at most 200 results'),
  ),
});
export type LatestDecisionsQuery = z.infer<typeof latestDecisionsQuerySchema>;

export const comparisonQuerySchema = z
  .object({
    from: isoDate('From'),
    to: isoDate('To'),
    rule_set_id: idField('rule_set_id').optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'From must not be after To', path: ['to'] });
export type ComparisonQuery = z.infer<typeof comparisonQuerySchema>;

export const disagreementSchema = z.object({
  result_id: z.number().int(),
  sample_code: z.string(),
  patient_name: z.string(),
  patient_code: z.string(),
  test_name: z.string(),
  value: z.string().nullable(),
  unit: z.string().nullable(),
  /** would_release_held: the rules would release, a person held (the one to study). */
  kind: z.enum(['would_release_held', 'would_hold_released']),
  /** What a person did: rejected (sent back), amended, or verified. */
  human: z.enum(['verified', 'rejected', 'amended', 'waiting']),
  verified_by_name: z.string().nullable(),
  /** Why the person sent it back, when they did. */
  rejection_reason: z.string().nullable(),
  reasons: z.array(decisionReasonSchema),
  decided_at: z.string(),
});
export type Disagreement = z.infer<typeof disagreementSchema>;

export const comparisonSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Shadow decisions of the period whose result a person has since dealt with. */
  compared: z.number().int(),
  /** Shadow decisions still waiting for a person (not compared). */
  waiting: z.number().int(),
  would_release: z.number().int(),
  would_hold: z.number().int(),
  human_verified: z.number().int(),
  human_held: z.number().int(),
  agreed: z.number().int(),
  /** agreed / compared, 0-100 (null: nothing compared). */
  agreement_percent: z.number().nullable(),
  disagreements: z.array(disagreementSchema),
});
export type Comparison = z.infer<typeof comparisonSchema>;
