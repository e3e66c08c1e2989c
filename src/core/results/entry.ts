import type { Insertable } from 'kysely';
import { recalculate } from './recalculate.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { numericValue } from '../../shared/flags.js';
import { evaluateFormula, parseFormula } from '../../shared/formula.js';
import { resultCode, type ResultCreate, type ResultUpdate, type TestResult } from '../../shared/schemas/results.js';
import { findSampleRow, updateSampleRow, type SampleRow } from '../samples/repository.js';
import { announceAmendment, announceCritical } from './announce.js';
import { addSampleHistory, checkedValue, evaluateValue } from './evaluate.js';
import { keptJudgement, refuseStructured, structuredEntry } from './structured.js';
import { OPEN_FOR_ENTRY } from './repository.js';
import type { TestResultsTable } from './tables.js';
import {
  deleteResultRow,
  insertAmendment,
  insertResultRow,
  orderedTests,
  ownResultRow,
  resultOf,
  resultsOfSample,
  testRules,
  updateResultRow,
  type ResultRow,
  type TestRules,
} from './entry-repository.js';
import { getResult } from './service.js';
import { consumeForResult, returnForResult } from '../inventory/service.js';
import { equipmentForEntry } from '../equipment/service.js';
import { announce } from '../events.js';

function entryClosedMessage(code: string, status: string): string {
  if (status === 'pending') return `Sample ${code} has not been collected yet; collect it before entering results`;
  if (status === 'completed') return `Sample ${code} is completed; results can no longer be added to it`;
  return `Sample ${code} is ${status}; results cannot be entered for it`;
}

/** The numeric values of a sample's results by test code (rejected ones left out), for formulas. */
export async function sampleValues(trx: Db, sampleId: number, tests: TestRules[]): Promise<Map<string, number>> {
  const codeOf = new Map(tests.map((t) => [t.id, t.code.toUpperCase()]));
  const vars = new Map<string, number>();
  for (const r of await resultsOfSample(trx, sampleId)) {
    const n = r.status === 'rejected' || r.result_value == null ? null : numericValue(r.result_value);
    const code = codeOf.get(r.test_id);
    if (n !== null && code) vars.set(code, n);
  }
  return vars;
}

/** A calculated test is filled in by the server; typing it is refused unless its formula cannot apply. */
async function refuseTypedCalculation(trx: Db, test: TestRules, sampleId: number) {
  if (test.result_type !== 'calculated' || !test.formula) return;
  const tests = await orderedTests(trx, sampleId);
  const outcome = evaluateFormula(parseFormula(test.formula), await sampleValues(trx, sampleId, tests));
  // When the formula's own condition fails (Friedewald with TG over 400), the lab measures it directly.
  if (!outcome.ok && outcome.reason.startsWith('not valid')) return;
  throw ValidationError.field(
    'result_value',
    `${test.name} is calculated (${test.formula}); it is filled in when the tests it uses are entered`,
  );
}

/**
 * Enters the result of one ordered test. A collected sample moves to processing (with a custody
 * entry) in the same transaction. The server checks the value against the test's type and judges it:
 * range, flag, critical, delta, review. Calculated tests of the sample are then worked out again.
 */
export async function createResult(db: Db, actor: Actor, input: ResultCreate): Promise<TestResult> {
  const id = await db.transaction().execute((trx) => enterResult(trx, actor, input));
  return getResult(db, actor.organizationId, id);
}

/**
 * createResult inside an open transaction: the one path every result takes, typed or sent by a
 * machine (src/core/interfaces), so flags, critical values, consumption and the sample's move to
 * processing are the same. Answers the new result's id.
 */
export async function enterResult(
  trx: Db,
  actor: Actor,
  input: ResultCreate,
  sent: { instrumentFlag: string | null } = { instrumentFlag: null },
): Promise<number> {
  const sample = await findSampleRow(trx, actor.organizationId, { id: input.sample_id });
  if (!sample) throw ValidationError.field('sample_id', `Unknown sample ${input.sample_id}`);
  const test = (await orderedTests(trx, sample.id)).find((t) => t.id === input.test_id);
  if (!test)
    throw ValidationError.field('test_id', `Test ${input.test_id} was not ordered on sample ${sample.sample_code}`);
  if (!(OPEN_FOR_ENTRY as readonly string[]).includes(sample.status))
    throw new ConflictError(entryClosedMessage(sample.sample_code, sample.status), 'SAMPLE_NOT_OPEN');
  const existing = await resultOf(trx, sample.id, test.id);
  if (existing) {
    throw new ConflictError(
      `A result for ${test.name} on sample ${sample.sample_code} is already entered (${resultCode(existing.id)}); edit it with PUT /api/test-results/${existing.id}`,
      'DUPLICATE_RESULT',
    );
  }
  await refuseTypedCalculation(trx, test, sample.id);
  const entry = test.result_type === 'structured' ? structuredEntry(test, input.structured) : null;
  if (!entry) {
    refuseStructured(test, input.structured);
    if (!input.result_value) throw ValidationError.field('result_value', 'Result value is required');
  }
  const value = entry ? entry.value : checkedValue(test, input.result_value!);
  const now = nowIso();
  const judged =
    entry?.judged ?? (await evaluateValue(trx, test, sample.patient_id, sample.id, sample.collection_date, value));
  const machine = input.equipment_id ? await equipmentForEntry(trx, actor.organizationId, input.equipment_id) : null;
  const row = await insertEnteredResult(trx, actor, now, {
    sample_id: sample.id,
    test_id: test.id,
    patient_id: sample.patient_id,
    result_value: value,
    unit: input.unit ?? test.unit,
    ...judged,
    notes: input.notes ?? null,
    calculated: 0,
    equipment_id: machine?.id ?? null,
    equipment_warning: machine?.warning ?? null,
    structured_value: entry?.structured ?? null,
  });
  // The reagents and consumables one run of the test uses leave stock with the result (409 if short).
  await consumeForResult(trx, actor, row.id, test.id);
  if (row.is_critical) await announceCritical(trx, actor, sample, test.name);
  if (sample.status === 'collected') {
    await updateSampleRow(trx, sample.id, { status: 'processing', updated_at: now });
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
  await recalculate(trx, actor, sample.id);
  await announce(trx, actor, 'result.entered', {
    resultId: row.id,
    sampleId: sample.id,
    instrumentFlag: sent.instrumentFlag,
  });
  return row.id;
}

/** What entry sets itself on a new result rather than taking from the bench or the formula. */
type SetOnEntry =
  | 'organization_id'
  | 'status'
  | 'rejection_reason'
  | 'technician_id'
  | 'entered_at'
  | 'verified_by'
  | 'verified_at'
  | 'amended'
  | 'created_at'
  | 'updated_at';

/**
 * Stores a new result as entered by the actor at `now`, audited: completed, not yet verified, never
 * amended. A value typed at the bench and one a formula works out (recalculate.ts) are stored alike.
 */
export async function insertEnteredResult(
  trx: Db,
  actor: Actor,
  now: string,
  values: Omit<Insertable<TestResultsTable>, SetOnEntry>,
): Promise<ResultRow> {
  const row = await insertResultRow(trx, {
    organization_id: actor.organizationId,
    ...values,
    status: 'completed',
    rejection_reason: null,
    technician_id: actor.userId,
    entered_at: now,
    verified_by: null,
    verified_at: null,
    amended: 0,
    created_at: now,
    updated_at: now,
  });
  await writeAudit(trx, actor, { action: 'create', entity: 'test_result', entityId: row.id, newValues: row });
  return row;
}

/** Writes a change to a stored result; a verified one keeps its earlier value as an amendment. */
export async function applyChange(
  trx: Db,
  actor: Actor,
  before: ResultRow,
  change: {
    value: string;
    unit: string | null;
    notes: string | null;
    reason: string | null;
    reentered?: boolean;
    /** A structured test's parameters (JSON); undefined leaves them as they are. */
    structured?: string;
  },
  judged: Awaited<ReturnType<typeof evaluateValue>>,
  about: { sample: SampleRow; testName: string },
): Promise<void> {
  const wasVerified = before.status === 'verified';
  const valueChanged =
    change.value !== (before.result_value ?? '') ||
    (change.structured !== undefined && change.structured !== before.structured_value);
  // A value typed again (sent back by a validator, or confirmed after a re-run) is a new entry even
  // when it is the same number: its time is what QC judges it by.
  const renewed = valueChanged || ['pending', 'rejected'].includes(before.status) || change.reentered === true;
  const now = nowIso();
  const patch = {
    result_value: change.value,
    ...(change.structured !== undefined ? { structured_value: change.structured } : {}),
    unit: change.unit,
    notes: change.notes,
    ...judged,
    status: before.status === 'pending' || before.status === 'rejected' || wasVerified ? 'completed' : before.status,
    rejection_reason: null,
    verified_by: wasVerified ? null : before.verified_by,
    verified_at: wasVerified ? null : before.verified_at,
    previous_verifier: wasVerified ? null : before.previous_verifier,
    autoverified_by: wasVerified ? null : before.autoverified_by,
    amended: wasVerified ? 1 : before.amended,
    technician_id: renewed ? actor.userId : before.technician_id,
    entered_at: renewed ? now : before.entered_at,
    updated_at: now,
  };
  await updateResultRow(trx, before.id, patch);
  if (wasVerified) {
    await insertAmendment(trx, {
      result_id: before.id,
      old_value: before.result_value,
      old_structured: before.structured_value,
      old_unit: before.unit,
      old_flag: before.flag,
      old_status: before.status,
      old_verified_by: before.verified_by,
      old_verified_at: before.verified_at,
      old_previous_verifier: before.previous_verifier,
      old_autoverified_by: before.autoverified_by,
      reason: change.reason!,
      amended_by: actor.userId,
      amended_at: now,
    });
    await reopenSample(trx, actor, before.sample_id);
  }
  const oldValues: Record<string, unknown> = {};
  const newValues: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === 'updated_at' || (before as Record<string, unknown>)[k] === v) continue;
    oldValues[k] = (before as Record<string, unknown>)[k];
    newValues[k] = v;
  }
  if (wasVerified) newValues.amendment_reason = change.reason;
  if (renewed && !valueChanged) newValues.reentered = true;
  await writeAudit(trx, actor, { action: 'update', entity: 'test_result', entityId: before.id, oldValues, newValues });
  // A new value that is critical is announced as one typed; an amendment after verification always is.
  if (valueChanged && judged.is_critical) await announceCritical(trx, actor, about.sample, about.testName);
  if (wasVerified) await announceAmendment(trx, actor, about.sample, about.testName, change.reason!);
}

/** An amended result on a completed sample opens it again until the change is verified; the report is withdrawn. */
async function reopenSample(trx: Db, actor: Actor, sampleId: number) {
  const sample = await findSampleRow(trx, actor.organizationId, { id: sampleId });
  if (!sample || sample.status !== 'completed') return;
  await updateSampleRow(trx, sampleId, {
    status: 'processing',
    completed_at: null,
    reported_at: null,
    updated_at: nowIso(),
  });
  await addSampleHistory(
    trx,
    actor,
    sampleId,
    'completed',
    'processing',
    sample.location,
    'A verified result was amended',
  );
}

/**
 * Changes value, unit or notes. A verified result needs a reason: the earlier value, flag and
 * verification are kept as an amendment, and the result goes back to completed for re-verification.
 * Whoever changes the value becomes its technician, so they cannot verify their own change.
 */
export async function updateResult(db: Db, actor: Actor, id: number, input: ResultUpdate): Promise<TestResult> {
  await db.transaction().execute((trx) => changeResult(trx, actor, id, input));
  return getResult(db, actor.organizationId, id);
}

/** updateResult inside an open transaction (a whole result sheet is saved in one). */
export async function changeResult(trx: Db, actor: Actor, id: number, input: ResultUpdate): Promise<void> {
  const before = await ownResultRow(trx, actor.organizationId, id);
  if (!before) throw new NotFoundError('Result', id);
  const sample = await findSampleRow(trx, actor.organizationId, { id: before.sample_id });
  if (!sample) throw new NotFoundError('Sample', before.sample_id);
  const test = await testRules(trx, before.test_id);
  // A structured test's summary is the server's: its parameters are what changes (or stay).
  const entry =
    test.result_type === 'structured' && (input.structured !== undefined || !before.structured_value)
      ? structuredEntry(test, input.structured)
      : null;
  if (test.result_type !== 'structured') refuseStructured(test, input.structured);
  else if (!entry && input.result_value !== undefined && input.result_value !== before.result_value)
    throw ValidationError.field(
      'result_value',
      `${test.name} is the summary of its parameters; change the parameters (structured) instead`,
    );
  const typed =
    entry?.value ?? (test.result_type === 'structured' ? null : input.result_value) ?? before.result_value ?? '';
  if (!typed) throw ValidationError.field('result_value', 'Result value is required');
  const value =
    entry || input.result_value === undefined || test.result_type === 'structured' ? typed : checkedValue(test, typed);
  const unit = input.unit === undefined ? before.unit : (input.unit ?? test.unit);
  const notes = input.notes === undefined ? before.notes : (input.notes ?? null);
  const changed =
    value !== (before.result_value ?? '') ||
    (entry !== null && entry.structured !== before.structured_value) ||
    unit !== before.unit ||
    notes !== before.notes;
  if (input.reentered && before.status === 'verified')
    throw new ConflictError(
      `${resultCode(id)} is verified; a new measurement is an amendment with a reason`,
      'ALREADY_VERIFIED',
    );
  // A record sent back unchanged (PUT what GET returned) is not an edit: no reason needed, nothing stored.
  if (!changed && before.status !== 'rejected' && !input.reentered) return;
  if (value !== (before.result_value ?? '') && before.calculated) await refuseTypedCalculation(trx, test, sample.id);
  if (sample.status === 'rejected')
    throw new ConflictError(
      `Sample ${sample.sample_code} is rejected; its results cannot be changed`,
      'SAMPLE_REJECTED',
    );
  if (before.status === 'verified' && !input.reason)
    throw ValidationError.field(
      'reason',
      'A verified result can only be changed with a reason (it is kept with the earlier value)',
    );
  const judged =
    entry?.judged ??
    (test.result_type === 'structured'
      ? keptJudgement(before)
      : await evaluateValue(trx, test, before.patient_id, sample.id, sample.collection_date, value));
  await applyChange(
    trx,
    actor,
    before,
    {
      value,
      unit,
      notes,
      reason: input.reason ?? null,
      reentered: input.reentered === true,
      structured: entry?.structured,
    },
    judged,
    { sample, testName: test.name },
  );
  // A result typed for the first time (a pending one) uses the test's reagents now; a correction does not.
  if (!before.result_value && !before.calculated) await consumeForResult(trx, actor, before.id, test.id);
  await recalculate(trx, actor, sample.id);
  await announce(trx, actor, 'result.entered', { resultId: before.id, sampleId: sample.id, instrumentFlag: null });
}

/** Entered but unverified results may be removed (a wrong test keyed in); a verified one is amended instead. */
export async function deleteResult(db: Db, actor: Actor, id: number): Promise<TestResult> {
  const result = await getResult(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    const row = await ownResultRow(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Result', id);
    if (row.status === 'verified')
      throw new ConflictError(
        `${resultCode(id)} is verified and cannot be deleted; edit it with a reason instead`,
        'RESULT_VERIFIED',
      );
    await deleteResultRow(trx, id);
    await writeAudit(trx, actor, { action: 'delete', entity: 'test_result', entityId: id, oldValues: row });
    // What its entry consumed goes back to the lots it came from.
    await returnForResult(trx, actor, id, `Result ${resultCode(id)} deleted`);
    await recalculate(trx, actor, row.sample_id);
  });
  return result;
}
