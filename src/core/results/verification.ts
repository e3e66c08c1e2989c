import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError } from '../errors.js';
import { getOrganization, settingsOf } from '../settings/organization.js';
import {
  resultCode,
  type BulkVerifyOutcome,
  type BulkVerifyResponse,
  type ResultReject,
  type TestResult,
} from '../../shared/schemas/results.js';
import { getResult } from './service.js';

/**
 * Verification (validation) of entered results. The verifier is always the signed-in user (the
 * spec's client sends a placeholder verified_by; it is ignored). Four eyes: whoever entered the
 * value cannot verify it unless the lab's allowSelfVerification setting is on.
 */

function notVerifiable(id: number, status: string): ConflictError {
  if (status === 'verified') return new ConflictError(`${resultCode(id)} is already verified`, 'ALREADY_VERIFIED');
  if (status === 'rejected')
    return new ConflictError(
      `${resultCode(id)} was rejected; it must be re-entered before it can be verified`,
      'RESULT_REJECTED',
    );
  return new ConflictError(
    `${resultCode(id)} has no result entered yet; only completed results can be verified`,
    'RESULT_NOT_COMPLETED',
  );
}

async function verifyOne(db: Db, actor: Actor, id: number, allowSelf: boolean): Promise<void> {
  if (!actor.userId) throw new ForbiddenError('A result can only be verified by a signed-in user');
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('test_results as r')
      .innerJoin('samples as s', 's.id', 'r.sample_id')
      .select([
        'r.id',
        'r.status',
        'r.technician_id',
        'r.verified_by',
        'r.verified_at',
        's.status as sample_status',
        's.sample_code',
      ])
      .where('r.organization_id', '=', actor.organizationId)
      .where('r.id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Result', id);
    if (row.status !== 'completed') throw notVerifiable(id, row.status);
    // A rejected sample (haemolysed, clotted...) gives no reportable result.
    if (row.sample_status === 'rejected') {
      throw new ConflictError(
        `Sample ${row.sample_code} was rejected; its results cannot be verified`,
        'SAMPLE_REJECTED',
      );
    }
    if (row.technician_id === actor.userId && !allowSelf) {
      throw new ForbiddenError(
        `You entered ${resultCode(id)}, so another user must verify it (this lab does not allow self-verification)`,
      );
    }
    const now = nowIso();
    await trx
      .updateTable('test_results')
      .set({ status: 'verified', verified_by: actor.userId, verified_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'test_result',
      entityId: id,
      oldValues: { status: row.status, verified_by: row.verified_by, verified_at: row.verified_at },
      newValues: { status: 'verified', verified_by: actor.userId, verified_at: now },
    });
  });
}

async function allowSelfVerification(db: Db, organizationId: number): Promise<boolean> {
  return settingsOf(await getOrganization(db, organizationId)).allowSelfVerification;
}

export async function verifyResult(db: Db, actor: Actor, id: number): Promise<TestResult> {
  await verifyOne(db, actor, id, await allowSelfVerification(db, actor.organizationId));
  return getResult(db, actor.organizationId, id);
}

/** Bulk Validate: each id on its own (one refusal does not undo the others), with the reason for each refusal. */
export async function bulkVerifyResults(db: Db, actor: Actor, ids: number[]): Promise<BulkVerifyResponse> {
  const allowSelf = await allowSelfVerification(db, actor.organizationId);
  const outcomes: BulkVerifyOutcome[] = [];
  for (const id of ids) {
    try {
      await verifyOne(db, actor, id, allowSelf);
      outcomes.push({ id, ok: true, status: 200, message: `Result ${resultCode(id)} has been verified` });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcomes.push({ id, ok: false, status: err.statusCode, message: err.message });
    }
  }
  const verified = outcomes.filter((o) => o.ok).length;
  return { verified, refused: outcomes.length - verified, outcomes };
}

/** A validator sends a completed result back (repeat the test, re-check the sample): the validation queue's "rejected". */
export async function rejectResult(db: Db, actor: Actor, id: number, input: ResultReject): Promise<TestResult> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('test_results')
      .select(['id', 'status', 'rejection_reason'])
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Result', id);
    if (row.status === 'verified')
      throw new ConflictError(
        `${resultCode(id)} is verified; amend it with a reason instead of rejecting it`,
        'ALREADY_VERIFIED',
      );
    if (row.status === 'rejected') throw new ConflictError(`${resultCode(id)} is already rejected`, 'RESULT_REJECTED');
    if (row.status !== 'completed') throw notVerifiable(id, row.status);
    const now = nowIso();
    await trx
      .updateTable('test_results')
      .set({ status: 'rejected', rejection_reason: input.reason, updated_at: now })
      .where('id', '=', id)
      .execute();
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
