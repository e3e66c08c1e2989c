import { z } from 'zod';
import { optionalEmail, optionalText, requiredText } from '../../../shared/schemas/common.js';
import { resultValue, structuredOutSchema } from '../../../shared/schemas/results.js';
import { insertHistoricalResult, type HistoricalResult } from '../../results/history.js';
import { resultExportPage, samplesForResults } from '../../results/transfer-repository.js';
import { usersByEmails } from '../../users/repository.js';
import type { EntityError, TransferColumn, TransferEntity } from '../entity.js';
import { insertEach, oneOf, pastInstant, upperKey, utcRangeOf } from './common.js';

/**
 * Test results, keyed by their sample (code) and test (code) together. An imported result is
 * history: value, unit, range, flag, status and who entered and verified it, as reported. The
 * test must be ordered on the sample (import the samples with their test_codes first); the people
 * are named by email and must be users of the lab. A stored result is not changed by an import
 * (--update is refused): amendments are made on Result Entry, with a reason.
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
    verified_by: optionalEmail,
    verified_at: pastInstant('The verification time'),
  })
  .superRefine((r, ctx) => {
    if (r.status !== 'pending' && r.result_value === undefined)
      ctx.addIssue({ code: 'custom', path: ['result_value'], message: 'Result value is required' });
    if (r.status === 'verified' && !r.verified_by)
      ctx.addIssue({
        code: 'custom',
        path: ['verified_by'],
        message: 'a verified result names who verified it (an email)',
      });
    if (r.status === 'rejected' && !r.rejection_reason)
      ctx.addIssue({ code: 'custom', path: ['rejection_reason'], message: 'a rejected result needs its reason' });
    if (r.status !== 'verified' && r.verified_by)
      ctx.addIssue({ code: 'custom', path: ['verified_by'], message: `a ${r.status} result has no verifier` });
  });
type Input = z.infer<typeof schema>;

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
    const emails = [
      ...new Set(rows.flatMap((r) => [r.input.entered_by, r.input.verified_by]).filter((e): e is string => !!e)),
    ];
    const people = new Map(
      (await usersByEmails(ctx.db, ctx.organizationId, emails)).map((u) => [u.email.toLowerCase(), u]),
    );
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
      const verifiedBy = x.verified_by ? people.get(x.verified_by) : undefined;
      if (x.verified_by && !verifiedBy)
        errors.push({ column: 'verified_by', message: `no user with email ${x.verified_by} in this lab` });
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
          verified_by: verifiedBy?.id ?? null,
          verified_at: x.status === 'verified' ? (x.verified_at ?? entered) : null,
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
  async *exportPages(db, organizationId, q) {
    const range = await utcRangeOf(db, organizationId, q);
    for (let afterId = 0; ;) {
      const rows = await resultExportPage(db, organizationId, {
        afterId,
        limit: 500,
        fromIso: range.from,
        beforeIso: range.before,
      });
      if (!rows.length) return;
      afterId = rows[rows.length - 1]!.id;
      const page = rows
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
          verified_at: r.verified_at,
          amended: r.amended === 1,
        }));
      if (page.length) yield page;
      if (rows.length < 500) return;
    }
  },
};
