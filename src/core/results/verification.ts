import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { labSettings } from '../settings/service.js';
import { findSampleRow } from '../samples/repository.js';
import {
  resultCode,
  type BulkVerifyOutcome,
  type BulkVerifyResponse,
  type CriticalCallInput,
  type ResultReject,
  type TestResult,
} from '../../shared/schemas/results.js';
import { actorName } from './evaluate.js';
import {
  insertCriticalCall,
  ownResultRow,
  resultForVerification,
  resultsOfSample,
  updateResultRow,
} from './entry-repository.js';
import { releaseResult } from './release.js';
import { getResult } from './service.js';
import { announce } from '../events.js';
import { actorHasPermission } from '../users/service.js';
import { notVerifiable, verifyRefusal, type VerifyMode } from './verify-rules.js';

/**
 * Verification (validation) of entered results. The verifier is always the signed-in user (the
 * spec's client sends a placeholder verified_by; it is ignored). Four eyes: whoever entered the
 * value cannot verify it unless the lab's allowSelfVerification setting is on. Bulk Validate
 * verifies only results that need no closer look (normal, not critical, no delta failure, not
 * amended): the others are refused here, whatever the screen sends.
 */

type Mode = VerifyMode;

async function verifyOne(db: Db, actor: Actor, id: number, allowSelf: boolean, mode: Mode): Promise<void> {
  if (!actor.userId) throw new ForbiddenError('A result can only be verified by a signed-in user');
  await db.transaction().execute(async (trx) => {
    const row = await resultForVerification(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Result', id);
    const refusal = verifyRefusal(
      id,
      { ...row, is_critical: row.is_critical === 1, delta_failed: row.delta_failed === 1, amended: row.amended === 1 },
      actor.userId,
      allowSelf,
      mode,
    );
    if (refusal) throw refusal;
    await releaseResult(trx, actor, row, { userId: actor.userId! }, nowIso());
  });
}

async function allowSelfVerification(db: Db, organizationId: number): Promise<boolean> {
  return (await labSettings(db, organizationId)).allowSelfVerification;
}

export async function verifyResult(db: Db, actor: Actor, id: number): Promise<TestResult> {
  await verifyOne(db, actor, id, await allowSelfVerification(db, actor.organizationId), 'single');
  return getResult(db, actor.organizationId, id);
}

/** Bulk Validate: each id on its own (one refusal does not undo the others), with the reason for each refusal. */
export async function bulkVerifyResults(db: Db, actor: Actor, ids: number[]): Promise<BulkVerifyResponse> {
  const allowSelf = await allowSelfVerification(db, actor.organizationId);
  return eachVerified(ids, (id) => verifyOne(db, actor, id, allowSelf, 'bulk'));
}

/**
 * Verifies each id on its own: a refusal (a domain error) is that id's outcome and the others go
 * on; anything else is a fault and stops the run.
 */
async function eachVerified(ids: number[], verify: (id: number) => Promise<void>): Promise<BulkVerifyResponse> {
  const outcomes: BulkVerifyOutcome[] = [];
  for (const id of ids) {
    try {
      await verify(id);
      outcomes.push({ id, ok: true, status: 200, message: `Result ${resultCode(id)} has been verified` });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcomes.push({ id, ok: false, status: err.statusCode, message: err.message });
    }
  }
  const verified = outcomes.filter((o) => o.ok).length;
  return { verified, refused: outcomes.length - verified, outcomes };
}

/**
 * Validate a sample as a unit: the validator has the whole report in front of them (each value with
 * its range, flag, previous value and who entered it) and verifies the results they were shown, the
 * abnormal ones included, each checked as one verification would be. Results of another sample are
 * refused; so is a result not shown (the screen sends the ids it displayed).
 */
export async function verifySample(
  db: Db,
  actor: Actor,
  sampleId: number,
  resultIds: number[],
): Promise<BulkVerifyResponse> {
  // Another lab's sample is not found, as on every other route: no per-result outcomes that tell it exists.
  if (!(await findSampleRow(db, actor.organizationId, { id: sampleId }))) throw new NotFoundError('Sample', sampleId);
  const allowSelf = await allowSelfVerification(db, actor.organizationId);
  const ofSample = new Set((await resultsOfSample(db, sampleId)).map((r) => r.id));
  return eachVerified(resultIds, async (id) => {
    if (!ofSample.has(id)) throw new ConflictError(`${resultCode(id)} is not a result of this sample`, 'OTHER_SAMPLE');
    await verifyOne(db, actor, id, allowSelf, 'single');
  });
}

/** A validator sends a completed result back (repeat the test, re-check the sample): the validation queue's "rejected". */
export async function rejectResult(db: Db, actor: Actor, id: number, input: ResultReject): Promise<TestResult> {
  await db.transaction().execute(async (trx) => {
    const row = await ownResultRow(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Result', id);
    if (row.status === 'verified')
      throw new ConflictError(
        `${resultCode(id)} is verified; amend it with a reason instead of rejecting it`,
        'ALREADY_VERIFIED',
      );
    if (row.status === 'rejected') throw new ConflictError(`${resultCode(id)} is already rejected`, 'RESULT_REJECTED');
    if (row.status !== 'completed') throw notVerifiable(id, row.status);
    const now = nowIso();
    await updateResultRow(trx, id, { status: 'rejected', rejection_reason: input.reason, updated_at: now });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'test_result',
      entityId: id,
      oldValues: { status: row.status, rejection_reason: row.rejection_reason },
      newValues: { status: 'rejected', rejection_reason: input.reason },
    });
  });
  return getResult(db, actor.organizationId, id);
}

/**
 * Logs the telephone call of a critical value (NABL: whom, when, read back, by whom). Its report
 * cannot be released until every critical value on it has a call.
 */
export async function logCriticalCall(db: Db, actor: Actor, id: number, input: CriticalCallInput): Promise<TestResult> {
  if (
    !(await actorHasPermission(db, actor, 'update_results')) &&
    !(await actorHasPermission(db, actor, 'verify_results'))
  )
    throw new ForbiddenError('Only staff who enter or verify results can log the call of a critical value');
  await db.transaction().execute(async (trx) => {
    const row = await ownResultRow(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Result', id);
    if (!row.is_critical)
      throw new ConflictError(`${resultCode(id)} is not a critical value; no call is needed`, 'NOT_CRITICAL');
    const now = nowIso();
    const calledAt = input.called_at ? new Date(input.called_at).toISOString() : now;
    if (Date.parse(calledAt) > Date.now() + 60_000)
      throw ValidationError.field('called_at', 'The call cannot be in the future');
    if (row.entered_at && calledAt < row.entered_at)
      throw ValidationError.field('called_at', 'The call cannot be before the result was entered');
    const values = {
      organization_id: actor.organizationId,
      result_id: id,
      called_to: input.called_to,
      called_at: calledAt,
      read_back: 1,
      notes: input.notes ?? null,
      recorded_by: actor.userId,
      recorded_by_name: await actorName(trx, actor),
      created_at: now,
    };
    await insertCriticalCall(trx, values);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'test_result',
      entityId: id,
      newValues: { critical_call: { called_to: values.called_to, called_at: calledAt, read_back: true } },
    });
    // The last call may be what the report waited for.
    await announce(trx, actor, 'result.critical_called', { sampleId: row.sample_id, resultId: id });
  });
  return getResult(db, actor.organizationId, id);
}
