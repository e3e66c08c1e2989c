import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { ConflictError, ForbiddenError, type DomainError } from '../errors.js';
import { labSettings } from '../settings/service.js';
import { actorHasPermission } from '../users/service.js';
import { resultCode, reviewReasons, type TestResult } from '../../shared/schemas/results.js';

/**
 * The rules a verification must pass before QC is asked, in one place: the verification itself
 * (verification.ts) throws the refusal, and the lists mark each row with it (can_verify and the
 * reason), so a screen offers Validate exactly where the server would take it. QC is not judged
 * here: its gate reads the QC runs at the moment of verification and is shown by the QC state.
 */
export type VerifyMode = 'single' | 'bulk';

/** What the rules read of a result (a row of the verification query, or a result of the lists). */
export interface VerifyFacts {
  status: string;
  sample_status: string;
  sample_code: string;
  technician_id: number | null;
  test_name: string;
  result_value: string | null;
  unit: string | null;
  flag: string | null;
  is_critical: boolean;
  delta_failed: boolean;
  amended: boolean;
}

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
export { notVerifiable };

const REASON_WORDS = {
  abnormal: 'outside the reference range',
  critical: 'critical',
  delta: 'differs from the previous result beyond the delta limit',
  amended: 'amended after verification',
} as const;

/** Why this user cannot verify this result now (null: the rules allow it; QC is asked next). */
export function verifyRefusal(
  id: number,
  r: VerifyFacts,
  userId: number | null,
  allowSelf: boolean,
  mode: VerifyMode,
): DomainError | null {
  if (!userId) return new ForbiddenError('A result can only be verified by a signed-in user');
  if (r.status !== 'completed') return notVerifiable(id, r.status);
  // A rejected sample (haemolysed, clotted...) gives no reportable result.
  if (r.sample_status === 'rejected')
    return new ConflictError(`Sample ${r.sample_code} was rejected; its results cannot be verified`, 'SAMPLE_REJECTED');
  if (mode === 'bulk') {
    const reasons = reviewReasons(r);
    if (reasons.length)
      return new ConflictError(
        `${resultCode(id)} (${r.test_name} ${r.result_value ?? ''}${r.unit ? ` ${r.unit}` : ''}) is ${reasons
          .map((x) => REASON_WORDS[x])
          .join(', ')}: open it and verify it on its own`,
        'NEEDS_REVIEW',
      );
  }
  if (r.technician_id === userId && !allowSelf)
    return new ForbiddenError(
      `You entered ${resultCode(id)}, so another user must verify it (this lab does not allow self-verification)`,
    );
  return null;
}

/**
 * Marks each result with whether the signed-in user may verify it on its own (the single
 * verification's rules) and, when not, why. Without verify_results no row can be verified.
 */
export async function markVerifiable(db: Db, actor: Actor, results: TestResult[]): Promise<TestResult[]> {
  const may = await actorHasPermission(db, actor, 'verify_results');
  const allowSelf = may && (await labSettings(db, actor.organizationId)).allowSelfVerification;
  for (const r of results) {
    if (!may) {
      r.can_verify = false;
      r.verify_refusal = 'Your role cannot verify results (verify_results)';
      continue;
    }
    if (r.id === null) {
      r.can_verify = false;
      r.verify_refusal = 'No result entered yet';
      continue;
    }
    const refusal = verifyRefusal(r.id, { ...r, sample_code: r.sample_number }, actor.userId, allowSelf, 'single');
    r.can_verify = refusal === null;
    r.verify_refusal = refusal?.message ?? null;
  }
  return results;
}
