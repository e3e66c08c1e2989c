import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { findSampleRow, updateSampleRow } from '../samples/repository.js';
import { resultCode } from '../../shared/schemas/results.js';
import { addSampleHistory } from './evaluate.js';
import { orderedTests, resultForVerification, resultsOfSample, updateResultRow } from './entry-repository.js';
import { qcGate } from '../qc/service.js';
import { announce } from '../events.js';
import { snapshotReport } from '../printing/service.js';
import { notVerifiable } from './verify-rules.js';

/**
 * The one release of a result, whoever or whatever verified it: the QC gate, the result marked
 * verified, its audit row, and the sample completed (report status, snapshot, `sample.completed`
 * for notifications, deliveries and interop out) once every ordered test is verified. A person's
 * verification (verification.ts) and the autoverification rules (src/core/autoverify) both come
 * here, so a result the rules release goes through everything a manual release does.
 */

export type VerificationRow = NonNullable<Awaited<ReturnType<typeof resultForVerification>>>;

/** Who released it: a signed-in user, or a rule set version named as text (no person acted). */
export type Releaser = { userId: number } | { ruleSet: string };

export async function releaseResult(
  trx: Db,
  actor: Actor,
  row: VerificationRow,
  by: Releaser,
  now: string,
): Promise<void> {
  const qc = await qcGate(trx, actor.organizationId, row.test_id, row.entered_at ?? now, row.equipment_id);
  if (qc.blocked) throw new ConflictError(`${resultCode(row.id)} (${row.test_name}): ${qc.message}`, 'QC_REJECTED');
  const verifiedBy = 'userId' in by ? by.userId : null;
  const autoverifiedBy = 'ruleSet' in by ? by.ruleSet : null;
  await updateResultRow(trx, row.id, {
    status: 'verified',
    verified_by: verifiedBy,
    verified_at: now,
    // Verified here and now: no earlier system's verifier is named on it.
    previous_verifier: null,
    autoverified_by: autoverifiedBy,
    updated_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'test_result',
    entityId: row.id,
    oldValues: { status: row.status, verified_by: row.verified_by, verified_at: row.verified_at },
    newValues: {
      status: 'verified',
      verified_by: verifiedBy,
      verified_at: now,
      ...(autoverifiedBy ? { autoverified_by: autoverifiedBy } : {}),
    },
  });
  await completeIfAllVerified(trx, actor, row.sample_id, now);
}

/**
 * Releases an entered result on the word of an autoverification rule set (`by`: "Autoverification
 * rule set v3 (approved by Dr ...)"). The same refusals as a person's verification apply (not
 * awaiting verification, a rejected sample, QC rejected); the four-eyes rule does not, as nobody
 * who entered it verifies it.
 */
export async function releaseByRules(trx: Db, actor: Actor, id: number, by: string, now: string): Promise<void> {
  const row = await resultForVerification(trx, actor.organizationId, id);
  if (!row) throw new NotFoundError('Result', id);
  if (row.status !== 'completed') throw notVerifiable(id, row.status);
  if (row.sample_status === 'rejected')
    throw new ConflictError(
      `Sample ${row.sample_code} was rejected; its results cannot be verified`,
      'SAMPLE_REJECTED',
    );
  await releaseResult(trx, actor, row, { ruleSet: by }, now);
}

/**
 * A sample whose every ordered test has a verified result is completed by itself; its report is
 * released at that moment (the reported time), which stays fixed across reprints.
 */
async function completeIfAllVerified(trx: Db, actor: Actor, sampleId: number, now: string): Promise<void> {
  const sample = await findSampleRow(trx, actor.organizationId, { id: sampleId });
  if (!sample || sample.status !== 'processing') return;
  const ordered = await orderedTests(trx, sampleId);
  const verified = new Set(
    (await resultsOfSample(trx, sampleId)).filter((r) => r.status === 'verified').map((r) => r.test_id),
  );
  if (!ordered.length || !ordered.every((t) => verified.has(t.id))) return;
  await updateSampleRow(trx, sampleId, { status: 'completed', completed_at: now, reported_at: now, updated_at: now });
  // The released report keeps the letterhead and signatories of this moment; an amended report
  // released again takes a new version with the settings of its own moment.
  await snapshotReport(trx, actor.organizationId, sampleId, now);
  await addSampleHistory(trx, actor, sampleId, 'processing', 'completed', sample.location, 'All results verified');
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'sample',
    entityId: sampleId,
    oldValues: { status: 'processing' },
    newValues: { status: 'completed', reported_at: now, notes: 'all results verified' },
  });
  await announce(trx, actor, 'sample.completed', { sampleId });
}
