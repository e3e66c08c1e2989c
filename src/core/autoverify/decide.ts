import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { DomainError } from '../errors.js';
import { withSavepoint } from '../db/savepoint.js';
import { organizationTimezone } from '../settings/service.js';
import { ownResultRow, resultsOfSample, type ResultRow } from '../results/entry-repository.js';
import { releaseByRules } from '../results/service.js';
import type { CoreEvents } from '../events.js';
import type { DecisionReason, RuleDocument } from '../../shared/schemas/autoverify.js';
import { evaluateAutoverification, stoppedEvaluation } from './evaluate.js';
import { gatherFacts } from './facts.js';
import { parsedDocument } from './mappers.js';
import { inForceAt, insertDecision, latestDecisions, stopFor, type DecisionRow } from './repository.js';

/**
 * What happens when a value is stored: the rule set in force judges it, the decision and its
 * reasons are kept and audited, and in live mode a release goes through results' own release (the
 * path a person's verification takes). Nothing is stored when no rule set is in force. A stop is
 * read at each result, so it holds the very next one.
 */

interface InForce {
  ruleSet: NonNullable<Awaited<ReturnType<typeof inForceAt>>>;
  doc: RuleDocument;
  timeZone: string;
}

/** The rules that judge what a person or a machine sends back only through a sibling. */
const WAITING_ON_SIBLINGS = new Set<DecisionReason['rule']>(['consistency', 'calculated_inputs']);

export async function onResultEntered(trx: Db, actor: Actor, event: CoreEvents['result.entered']): Promise<void> {
  const now = nowIso();
  const ruleSet = await inForceAt(trx, actor.organizationId, now);
  if (!ruleSet) return;
  const ctx: InForce = {
    ruleSet,
    doc: parsedDocument(ruleSet.document),
    timeZone: await organizationTimezone(trx, actor.organizationId),
  };
  const result = await ownResultRow(trx, actor.organizationId, event.resultId);
  if (result?.status === 'completed') await decide(trx, actor, ctx, result, event.instrumentFlag, now);

  // A result held only while a sibling was missing or unreleased (a consistency check, a
  // calculation's inputs) is judged again now; so is a calculated one the entry just worked out.
  const others = (await resultsOfSample(trx, event.sampleId)).filter(
    (r) => r.id !== event.resultId && r.status === 'completed',
  );
  const latest = await latestDecisions(
    trx,
    actor.organizationId,
    others.map((r) => r.id),
  );
  for (const other of others) {
    const last = latest.get(other.id);
    if (last ? waitsOnSiblings(last) : other.calculated === 1) await decide(trx, actor, ctx, other, null, now);
  }
}

function waitsOnSiblings(d: DecisionRow): boolean {
  if (d.decision !== 'hold') return false;
  const failed = (JSON.parse(d.reasons) as DecisionReason[]).filter((r) => !r.passed);
  return failed.length > 0 && failed.every((r) => WAITING_ON_SIBLINGS.has(r.rule));
}

/** "Autoverification rule set v3 (approved by Dr Meena Rao)": the verifier a report prints. */
export function ruleSetVerifier(r: { version: number; approved_by_name: string | null }): string {
  return `Autoverification rule set v${r.version} (approved by ${r.approved_by_name ?? 'an unnamed user'})`;
}

async function decide(
  trx: Db,
  actor: Actor,
  ctx: InForce,
  result: ResultRow,
  instrumentFlag: string | null,
  now: string,
): Promise<void> {
  const { ruleSet } = ctx;
  const mode = ruleSet.mode as 'shadow' | 'live';
  // A stop decides alone: nothing else is read, so a stopped lab pays only for the decision row.
  const stop = await stopFor(trx, actor.organizationId, result.test_id);
  const evaluation = stop
    ? stoppedEvaluation(stop)
    : evaluateAutoverification(
        ctx.doc,
        await gatherFacts(trx, actor.organizationId, result, {
          instrumentFlag,
          mode,
          timeZone: ctx.timeZone,
        }),
      );
  let released = false;
  if (mode === 'live' && evaluation.decision === 'release') {
    try {
      await withSavepoint(trx, () => releaseByRules(trx, actor, result.id, ruleSetVerifier(ruleSet), now));
      released = true;
    } catch (err) {
      // Refused by the release itself (QC rejected since, a rejected sample): the result waits for
      // a person, and the decision says why.
      if (!(err instanceof DomainError)) throw err;
      evaluation.decision = 'hold';
      evaluation.reasons.push({ rule: 'status', passed: false, text: `held: the release was refused: ${err.message}` });
    }
  }
  const { id } = await insertDecision(trx, {
    organization_id: actor.organizationId,
    result_id: result.id,
    test_id: result.test_id,
    rule_set_id: ruleSet.id,
    mode,
    decision: evaluation.decision,
    released: released ? 1 : 0,
    result_value: result.result_value,
    reasons: JSON.stringify(evaluation.reasons),
    decided_at: now,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'autoverify_decision',
    entityId: id,
    newValues: {
      result_id: result.id,
      rule_set: `v${ruleSet.version}`,
      mode,
      decision: evaluation.decision,
      released,
      held_by: evaluation.reasons.filter((r) => !r.passed).map((r) => r.text),
    },
  });
}
