import { z } from 'zod';
import { optionalEmail, optionalText, requiredText } from '../../../shared/schemas/common.js';
import { labSettings } from '../../settings/service.js';
import { actorHasPermission } from '../../users/service.js';
import { resultValue, structuredOutSchema } from '../../../shared/schemas/results.js';
import { insertHistoricalResult, type HistoricalResult } from '../../results/service.js';
import { resultExportPage, samplesForResults } from '../../results/transfer-repository.js';
import { usersByEmails } from '../../users/repository.js';
import type { EntityError, TransferColumn, TransferEntity } from '../entity.js';
import { insertEach, oneOf, pastInstant, upperKey, keysetPages } from './common.js';

/**
 * Test results, keyed by their sample (code) and test (code) together. An imported result is
 * history: value, unit, range, flag, status and who entered and verified it, as reported. The
 * test must be ordered on the sample (import the samples with their test_codes first); whoever
 * entered it is named by email and must be a user of the lab. A stored result is not changed by
 * an import (--update is refused): amendments are made on Result Entry, with a reason.
 *
 * A result imported as verified was verified in the lab's previous system: its verifier there is
 * kept as text (previous_verifier, else verified_by: a name or an email), never as a lims user,
 * who did not act. The lims user who imports it releases it (verified_by is theirs) and must be
 * one who may verify results (verify_results), on the terms of Result Validation: not their own
 * entry unless the lab allows self-verification, not on a rejected sample. A critical value's
 * report is held until its call is logged, as for one verified on the screen.
 */

const FLAGS = ['normal', 'low', 'high', 'abnormal'] as const;
const STATUSES = ['pending', 'completed', 'verified', 'rejected'] as const;

const columns: TransferColumn[] = [
  { name: 'sample_id' },
  { name: 'test_code' },
  { name: 'test_name', readOnly: true },
  { name: 'patient_number', readOnly: true },
  { name: 'result_value' },
  { name: 'structured', kind: 'json' },
  { name: 'unit' },
  { name: 'normal_range' },
  { name: 'flag' },
  { name: 'is_critical', kind: 'boolean' },
  { name: 'status' },
  { name: 'notes' },
  { name: 'rejection_reason' },
  { name: 'entered_by' },
  { name: 'entered_at', kind: 'timestamp' },
  { name: 'verified_by' },
  { name: 'previous_verifier' },
  { name: 'verified_at', kind: 'timestamp' },
  { name: 'amended', kind: 'boolean', readOnly: true },
];

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

const schema = z
  .object({
    sample_id: requiredText('The sample code (sample_id)', 30).transform(upperKey),
    test_code: requiredText('The test code', 30).transform(upperKey),
    result_value: z.preprocess(blank, resultValue.optional()),
    /** A structured result's parameters as lims exports them ({template, values, flags, culture}). */
    structured: z.preprocess(blank, structuredOutSchema.optional()),
    unit: optionalText(30),
    normal_range: optionalText(120),
    flag: z.preprocess(blank, z.enum(FLAGS, { error: `Flag must be one of ${FLAGS.join(', ')}` }).optional()),
    is_critical: z.boolean({ error: 'is_critical must be true or false' }).default(false),
    status: z.preprocess(
      blank,
      z.enum(STATUSES, { error: `Status must be one of ${STATUSES.join(', ')}` }).default('completed'),
    ),
    notes: optionalText(1000),
    rejection_reason: optionalText(500),
    entered_by: optionalEmail,
    entered_at: pastInstant('The entry time'),
    /** Who verified it (a name or an email): kept as the previous system's verifier. */
    verified_by: optionalText(254, 'Verified by'),
    /** The previous system's verifier as lims exports it; when given, verified_by is who released it there. */
    previous_verifier: optionalText(254, 'Previous verifier'),
    verified_at: pastInstant('The verification time'),
  })
  .superRefine((r, ctx) => {
    if (r.status !== 'pending' && r.result_value === undefined)
      ctx.addIssue({ code: 'custom', path: ['result_value'], message: 'Result value is required' });
    if (r.status === 'verified' && !r.verified_by && !r.previous_verifier)
      ctx.addIssue({
        code: 'custom',
        path: ['verified_by'],
        message: 'a verified result names who verified it in the previous system (a name or an email)',
      });
    if (r.status === 'rejected' && !r.rejection_reason)
      ctx.addIssue({ code: 'custom', path: ['rejection_reason'], message: 'a rejected result needs its reason' });
    for (const column of ['verified_by', 'previous_verifier'] as const)
      if (r.status !== 'verified' && r[column])
        ctx.addIssue({ code: 'custom', path: [column], message: `a ${r.status} result has no verifier` });
  });
type Input = z.infer<typeof schema>;

/**
 * Why the importer may not release this row as verified (Result Validation's own terms): the
 * permission to verify, four eyes on their own entry, and no verified result on a rejected sample.
 */
function verifyRefusals(
  importer: number | null,
  mayVerify: boolean,
  allowSelf: boolean,
  enteredBy: { id: number } | undefined,
  sample: { status: string; code: string } | undefined,
): EntityError[] {
  const out: EntityError[] = [];
  if (!mayVerify)
    out.push({
      column: 'status',
      message:
        'importing a verified result needs the permission to verify results (verify_results); import it as completed and verify it on Result Validation',
    });
  else if (importer !== null && enteredBy?.id === importer && !allowSelf)
    out.push({
      column: 'entered_by',
      message:
        'you entered this result, so you cannot release it as verified (this lab does not allow self-verification)',
    });
  if (sample?.status === 'rejected')
    out.push({ column: 'sample_id', message: `sample ${sample.code} was rejected; its results cannot be verified` });
  return out;
}

const keyOf = (v: Record<string, unknown>) =>
  typeof v.sample_id === 'string' && typeof v.test_code === 'string' && v.sample_id.trim() && v.test_code.trim()
    ? `${upperKey(v.sample_id)} ${upperKey(v.test_code)}`
    : null;

export const results: TransferEntity<Input, true, HistoricalResult & { row: number }> = {
  name: 'results',
  label: 'result',
  auditEntity: 'test_result',
  columns,
  key: 'test_code',
  keyOf,
  normalizeKey: upperKey,
  requiredColumns: ['sample_id', 'test_code'],
  createSchema: schema,
  noUpdate: 'a stored result is part of a report; amend it on Result Entry, with a reason',
  batchSize: 500,

  async findExisting(ctx, keys) {
    const samples = await samplesForResults(ctx.db, ctx.organizationId, [
      ...new Set(keys.map((k) => k.split(' ')[0]!)),
    ]);
    const out = new Map<string, true>();
    for (const k of keys) {
      const [sample, test] = k.split(' ') as [string, string];
      if (samples.get(sample)?.withResult.has(test)) out.set(k, true);
    }
    return out;
  },

  async plan(ctx, rows) {
    const samples = await samplesForResults(ctx.db, ctx.organizationId, [
      ...new Set(rows.map((r) => r.input.sample_id)),
    ]);
    const emails = [...new Set(rows.map((r) => r.input.entered_by).filter((e): e is string => !!e))];
    const people = new Map(
      (await usersByEmails(ctx.db, ctx.organizationId, emails)).map((u) => [u.email.toLowerCase(), u]),
    );
    const verifies = rows.some((r) => r.input.status === 'verified');
    const mayVerify = verifies && (await actorHasPermission(ctx.db, ctx.actor, 'verify_results'));
    const allowSelf = verifies && (await labSettings(ctx.db, ctx.organizationId)).allowSelfVerification;
    return rows.map((r) => {
      const x = r.input;
      const errors: EntityError[] = [];
      const sample = samples.get(x.sample_id);
      const testId = sample?.ordered.get(x.test_code);
      if (!sample)
        errors.push({ column: 'sample_id', message: `no sample with code ${x.sample_id} (import the samples first)` });
      else if (testId === undefined)
        errors.push({ column: 'test_code', message: `${x.test_code} is not ordered on sample ${x.sample_id}` });
      const enteredBy = x.entered_by ? people.get(x.entered_by) : undefined;
      if (x.entered_by && !enteredBy)
        errors.push({ column: 'entered_by', message: `no user with email ${x.entered_by} in this lab` });
      if (x.status === 'verified')
        errors.push(...verifyRefusals(ctx.actor.userId, mayVerify, allowSelf, enteredBy, sample));
      if (errors.length) return { row: r.row, errors };
      const entered = x.entered_at ?? new Date().toISOString();
      return {
        row: r.row,
        plan: {
          row: r.row,
          sample_id: sample!.id,
          test_id: testId!,
          patient_id: sample!.patient_id,
          result_value: x.result_value ?? null,
          structured_value: x.structured ? JSON.stringify(x.structured) : null,
          unit: x.unit ?? null,
          normal_range: x.normal_range ?? null,
          flag: x.flag ?? null,
          is_critical: x.is_critical ? 1 : 0,
          status: x.status,
          review_required: (x.flag && x.flag !== 'normal') || x.is_critical ? 1 : 0,
          notes: x.notes ?? null,
          rejection_reason: x.rejection_reason ?? null,
          technician_id: enteredBy?.id ?? null,
          entered_at: entered,
          // Released by the importer (null from the command line: no lims user acted), verified by the previous system.
          verified_by: x.status === 'verified' ? ctx.actor.userId : null,
          verified_at: x.status === 'verified' ? (x.verified_at ?? entered) : null,
          previous_verifier: x.status === 'verified' ? (x.previous_verifier ?? x.verified_by ?? null) : null,
        },
      };
    });
  },

  async write(ctx, plans) {
    return insertEach(ctx, plans, (result) => insertHistoricalResult(ctx.db, ctx.actor, result));
  },

  filters: {
    status: oneOf(STATUSES),
    flag: oneOf(FLAGS),
    test_code: z.string().trim().min(1).transform(upperKey),
    patient_number: z.string().trim().min(1).transform(upperKey),
  },
  dateField: 'entry time (entered_at)',
  exportPages(db, organizationId, q) {
    return keysetPages(db, organizationId, q, resultExportPage, (rows) =>
      rows
        .filter((r) => !q.where.status || r.status === q.where.status)
        .filter((r) => !q.where.flag || r.flag === q.where.flag)
        .filter((r) => !q.where.test_code || r.test_code.toUpperCase() === q.where.test_code)
        .filter((r) => !q.where.patient_number || r.patient_code === q.where.patient_number)
        .map((r) => ({
          sample_id: r.sample_code,
          test_code: r.test_code,
          test_name: r.test_name,
          patient_number: r.patient_code,
          result_value: r.result_value,
          structured: r.structured_value ? (JSON.parse(r.structured_value) as unknown) : null,
          unit: r.unit,
          normal_range: r.normal_range,
          flag: r.flag,
          is_critical: r.is_critical === 1,
          status: r.status,
          notes: r.notes,
          rejection_reason: r.rejection_reason,
          entered_by: r.entered_by_email,
          entered_at: r.entered_at,
          verified_by: r.verified_by_email,
          // Released by autoverification: the rule set is who verified it, as text, so a re-import names it.
          previous_verifier: r.previous_verifier ?? r.autoverified_by,
          verified_at: r.verified_at,
          amended: r.amended === 1,
        })),
    );
  },
};
