import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { organizationTimezone } from '../settings/organization.js';
import { localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  resultCode,
  type ResultCreate,
  type ResultListQuery,
  type ResultPage,
  type ResultSheet,
  type ResultSummary,
  type ResultUpdate,
  type TestResult,
} from '../../shared/schemas/results.js';
import { addSampleHistory, evaluateValue } from './evaluate.js';
import { ageAt, rangeForPatient, toResult } from './mappers.js';
import {
  amendmentsOf,
  findResultRow,
  OPEN_FOR_ENTRY,
  pageResults,
  resultCounts,
  resultRowsOfSample,
} from './repository.js';

export async function listResults(db: Db, organizationId: number, q: ResultListQuery): Promise<ResultPage> {
  const { rows, total } = await pageResults(db, organizationId, q);
  const tz = await organizationTimezone(db, organizationId);
  return { results: rows.map((r) => toResult(r, tz)), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getResult(db: Db, organizationId: number, id: number): Promise<TestResult> {
  const row = await findResultRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Result', id);
  return toResult(row, await organizationTimezone(db, organizationId), (await amendmentsOf(db, [id])).get(id) ?? []);
}

export async function resultSummary(db: Db, organizationId: number): Promise<ResultSummary> {
  const tz = await organizationTimezone(db, organizationId);
  const c = await resultCounts(db, organizationId, startOfLocalDayUtc(tz, localDate(tz)).toISOString());
  const pending = c.awaiting + c.pendingStored;
  return {
    total: c.entered + c.awaiting,
    completed: c.completed,
    verified: c.verified,
    pending,
    rejected: c.rejected,
    abnormal: c.abnormal,
    critical: c.critical,
    awaiting_validation: c.completed,
    pending_validation: c.completed - c.reviewRequired,
    review_required: c.reviewRequired,
    validated_today: c.validatedToday,
  };
}

async function sampleFor(db: Db, organizationId: number, sampleId: number) {
  return db
    .selectFrom('samples as s')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .select([
      's.id',
      's.sample_code',
      's.barcode',
      's.status',
      's.sample_type',
      's.priority',
      's.collection_date',
      's.location',
      's.patient_id',
      'p.first_name',
      'p.last_name',
      'p.patient_code',
      'p.gender',
      'p.date_of_birth',
    ])
    .where('s.organization_id', '=', organizationId)
    .where('s.id', '=', sampleId)
    .executeTakeFirst();
}

/** The entry sheet of one sample: each ordered test with its unit, the range for this patient and its result. */
export async function resultSheet(db: Db, organizationId: number, sampleId: number): Promise<ResultSheet> {
  const s = await sampleFor(db, organizationId, sampleId);
  if (!s) throw new NotFoundError('Sample', sampleId);
  const tz = await organizationTimezone(db, organizationId);
  const ordered = await db
    .selectFrom('sample_tests as st')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(['t.id', 't.name', 't.code', 't.unit', 't.normal_range', 't.reference_ranges'])
    .where('st.sample_id', '=', sampleId)
    .orderBy('st.position')
    .execute();
  const results = new Map(
    (await resultRowsOfSample(db, organizationId, sampleId)).map((r) => [r.test_id, toResult(r, tz)]),
  );
  const tests = ordered.map((t) => {
    const result = results.get(t.id) ?? null;
    results.delete(t.id);
    const range = rangeForPatient(t, s, s.collection_date, tz);
    return {
      test_id: t.id,
      test_name: t.name,
      test_code: t.code,
      unit: result?.unit ?? t.unit,
      normal_range: result?.normal_range ?? range?.range ?? null,
      result,
    };
  });
  // Results of tests no longer on the order stay visible (they were entered; they are not lost).
  for (const r of results.values())
    tests.push({
      test_id: r.test_id,
      test_name: r.test_name,
      test_code: r.test_code,
      unit: r.unit,
      normal_range: r.normal_range,
      result: r,
    });
  return {
    sample: {
      id: s.id,
      sample_number: s.sample_code,
      barcode: s.barcode,
      status: s.status,
      sample_type: s.sample_type,
      priority: s.priority,
      collection_date: s.collection_date,
      patient_id: s.patient_id,
      first_name: s.first_name,
      last_name: s.last_name,
      patient_number: s.patient_code,
      gender: s.gender,
      age: ageAt(s.date_of_birth, s.collection_date, tz),
    },
    can_enter: (OPEN_FOR_ENTRY as readonly string[]).includes(s.status),
    all_verified: ordered.length > 0 && tests.every((t) => t.result?.status === 'verified'),
    tests,
  };
}

function entryClosedMessage(code: string, status: string): string {
  if (status === 'pending') return `Sample ${code} has not been collected yet; collect it before entering results`;
  if (status === 'completed') return `Sample ${code} is completed; results can no longer be added to it`;
  return `Sample ${code} is ${status}; results cannot be entered for it`;
}

/**
 * Enters the result of one ordered test. A collected sample moves to processing (with a custody
 * entry) in the same transaction. The server judges the value: range, flag, critical, review.
 */
export async function createResult(db: Db, actor: Actor, input: ResultCreate): Promise<TestResult> {
  const id = await db.transaction().execute(async (trx) => {
    const sample = await trx
      .selectFrom('samples')
      .selectAll()
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', input.sample_id)
      .executeTakeFirst();
    if (!sample) throw ValidationError.field('sample_id', `Unknown sample ${input.sample_id}`);
    const test = await trx
      .selectFrom('sample_tests as st')
      .innerJoin('tests as t', 't.id', 'st.test_id')
      .select(['t.id', 't.name'])
      .where('st.sample_id', '=', sample.id)
      .where('st.test_id', '=', input.test_id)
      .executeTakeFirst();
    if (!test)
      throw ValidationError.field('test_id', `Test ${input.test_id} was not ordered on sample ${sample.sample_code}`);
    if (!(OPEN_FOR_ENTRY as readonly string[]).includes(sample.status))
      throw new ConflictError(entryClosedMessage(sample.sample_code, sample.status), 'SAMPLE_NOT_OPEN');
    const existing = await trx
      .selectFrom('test_results')
      .select(['id'])
      .where('sample_id', '=', sample.id)
      .where('test_id', '=', test.id)
      .executeTakeFirst();
    if (existing) {
      throw new ConflictError(
        `A result for ${test.name} on sample ${sample.sample_code} is already entered (${resultCode(existing.id)}); edit it with PUT /api/test-results/${existing.id}`,
        'DUPLICATE_RESULT',
      );
    }
    const now = nowIso();
    const judged = await evaluateValue(trx, test.id, sample.patient_id, sample.collection_date, input.result_value);
    const row = await trx
      .insertInto('test_results')
      .values({
        organization_id: actor.organizationId,
        sample_id: sample.id,
        test_id: test.id,
        patient_id: sample.patient_id,
        result_value: input.result_value,
        unit: input.unit ?? judged.testUnit,
        normal_range: judged.normal_range,
        flag: judged.flag,
        is_critical: judged.is_critical,
        review_required: judged.review_required,
        status: 'completed',
        notes: input.notes ?? null,
        rejection_reason: null,
        technician_id: actor.userId,
        entered_at: now,
        verified_by: null,
        verified_at: null,
        amended: 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeAudit(trx, actor, { action: 'create', entity: 'test_result', entityId: row.id, newValues: row });
    if (sample.status === 'collected') {
      await trx
        .updateTable('samples')
        .set({ status: 'processing', updated_at: now })
        .where('id', '=', sample.id)
        .execute();
      await addSampleHistory(
        trx,
        actor,
        sample.id,
        'collected',
        'processing',
        sample.location,
        `First result entered (${test.name})`,
      );
      await writeAudit(trx, actor, {
        action: 'update',
        entity: 'sample',
        entityId: sample.id,
        oldValues: { status: 'collected' },
        newValues: { status: 'processing', notes: 'result entry' },
      });
    }
    return row.id;
  });
  return getResult(db, actor.organizationId, id);
}

/**
 * Changes value, unit or notes. A verified result needs a reason: the earlier value, flag and
 * verification are kept as an amendment, and the result goes back to completed for re-verification.
 * Whoever changes the value becomes its technician, so they cannot verify their own change.
 */
export async function updateResult(db: Db, actor: Actor, id: number, input: ResultUpdate): Promise<TestResult> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('test_results')
      .selectAll()
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) throw new NotFoundError('Result', id);
    const sample = await trx
      .selectFrom('samples')
      .select(['status', 'sample_code', 'collection_date'])
      .where('id', '=', before.sample_id)
      .executeTakeFirstOrThrow();
    const value = input.result_value ?? before.result_value ?? '';
    if (!value) throw ValidationError.field('result_value', 'Result value is required');
    const judged = await evaluateValue(trx, before.test_id, before.patient_id, sample.collection_date, value);
    const unit = input.unit === undefined ? before.unit : (input.unit ?? judged.testUnit);
    const notes = input.notes === undefined ? before.notes : input.notes;
    const valueChanged = value !== (before.result_value ?? '');
    const changed = valueChanged || unit !== before.unit || notes !== before.notes;
    // A record sent back unchanged (PUT what GET returned) is not an edit: no reason needed, nothing stored.
    if (!changed && before.status !== 'rejected') return;
    if (sample.status === 'rejected')
      throw new ConflictError(
        `Sample ${sample.sample_code} is rejected; its results cannot be changed`,
        'SAMPLE_REJECTED',
      );
    const wasVerified = before.status === 'verified';
    if (wasVerified && !input.reason)
      throw ValidationError.field(
        'reason',
        'A verified result can only be changed with a reason (it is kept with the earlier value)',
      );
    const now = nowIso();
    const patch = {
      result_value: value,
      unit,
      notes,
      normal_range: judged.normal_range,
      flag: judged.flag,
      is_critical: judged.is_critical,
      review_required: judged.review_required,
      status: before.status === 'pending' || before.status === 'rejected' || wasVerified ? 'completed' : before.status,
      rejection_reason: null,
      verified_by: wasVerified ? null : before.verified_by,
      verified_at: wasVerified ? null : before.verified_at,
      amended: wasVerified ? 1 : before.amended,
      technician_id: valueChanged || before.status === 'pending' ? actor.userId : before.technician_id,
      entered_at: valueChanged || before.status === 'pending' ? now : before.entered_at,
      updated_at: now,
    };
    await trx.updateTable('test_results').set(patch).where('id', '=', id).execute();
    if (wasVerified) {
      await trx
        .insertInto('result_amendments')
        .values({
          result_id: id,
          old_value: before.result_value,
          old_unit: before.unit,
          old_flag: before.flag,
          old_status: before.status,
          old_verified_by: before.verified_by,
          old_verified_at: before.verified_at,
          reason: input.reason!,
          amended_by: actor.userId,
          amended_at: now,
        })
        .execute();
    }
    const oldValues: Record<string, unknown> = {};
    const newValues: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(patch)) {
      if (k === 'updated_at' || (before as Record<string, unknown>)[k] === v) continue;
      oldValues[k] = (before as Record<string, unknown>)[k];
      newValues[k] = v;
    }
    if (wasVerified) newValues.amendment_reason = input.reason;
    await writeAudit(trx, actor, { action: 'update', entity: 'test_result', entityId: id, oldValues, newValues });
  });
  return getResult(db, actor.organizationId, id);
}

/** Entered but unverified results may be removed (a wrong test keyed in); a verified one is amended instead. */
export async function deleteResult(db: Db, actor: Actor, id: number): Promise<TestResult> {
  const result = await getResult(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('test_results')
      .selectAll()
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Result', id);
    if (row.status === 'verified')
      throw new ConflictError(
        `${resultCode(id)} is verified and cannot be deleted; edit it with a reason instead`,
        'RESULT_VERIFIED',
      );
    await trx.deleteFrom('test_results').where('id', '=', id).execute();
    await writeAudit(trx, actor, { action: 'delete', entity: 'test_result', entityId: id, oldValues: row });
  });
  return result;
}
