import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { assertOwned } from '../catalogue/repository.js';
import { ownResultRow } from '../results/entry-repository.js';
import { actorName } from '../samples/service.js';
import { findUser } from '../users/repository.js';
import { titledName } from '../../shared/person-name.js';
import {
  defaultRuleDocument,
  type ActivationInput,
  type AutoverifyDecision,
  type AutoverifyState,
  type ResumeInput,
  type RuleDocument,
  type RuleSet,
  type RuleSetCreate,
  type RuleSetUpdate,
  type StopInput,
} from '../../shared/schemas/autoverify.js';
import { toActivation, toDecision, toRuleSet, toStop } from './mappers.js';
import {
  activationAfter,
  activationAt,
  activationsOf,
  decisionsOfResult,
  latestDecisions,
  deleteStop,
  findRuleSet,
  insertActivation,
  insertRuleSet,
  insertStop,
  listRuleSets,
  nextVersion,
  stopsOf,
  updateRuleSet,
} from './repository.js';

/**
 * Rule sets as versioned documents: a draft is edited, approved by a user with
 * approve_autoverification, then activated from a moment in shadow or live mode. An approved
 * version never changes; a change is a new draft version. The stops hold results at once,
 * whatever is in force; resuming needs the approver's permission.
 */

async function ownedTests(db: Db, organizationId: number, doc: RuleDocument): Promise<void> {
  await assertOwned(db, 'tests', organizationId, [...new Set(doc.tests.map((t) => t.test_id))], 'document.tests');
  await assertOwned(
    db,
    'tests',
    organizationId,
    [...new Set(doc.consistency.flatMap((c) => [c.left_test_id, c.right_test_id]))],
    'document.consistency',
  );
  const seen = new Set<number>();
  for (const t of doc.tests) {
    if (seen.has(t.test_id)) throw ValidationError.field('document.tests', `Test ${t.test_id} is listed twice`);
    seen.add(t.test_id);
  }
}

async function ruleSetOf(db: Db, organizationId: number, id: number): Promise<RuleSet> {
  const row = await findRuleSet(db, organizationId, id);
  if (!row) throw new NotFoundError('Rule set', id);
  return toRuleSet(row, await activationsOf(db, organizationId, [id]));
}

export const getRuleSet = ruleSetOf;

export async function listRuleSetsOf(db: Db, organizationId: number): Promise<RuleSet[]> {
  const rows = await listRuleSets(db, organizationId);
  const activations = await activationsOf(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toRuleSet(r, activations));
}

/** A new draft: the given rules, or the lab's default ones. */
export async function createRuleSet(db: Db, actor: Actor, input: RuleSetCreate): Promise<RuleSet> {
  const doc = input.document ?? defaultRuleDocument();
  const id = await db.transaction().execute(async (trx) => {
    await ownedTests(trx, actor.organizationId, doc);
    return draft(trx, actor, { name: input.name, notes: input.notes ?? null, doc, basedOn: null });
  });
  return ruleSetOf(db, actor.organizationId, id);
}

async function draft(
  trx: Db,
  actor: Actor,
  v: { name: string; notes: string | null; doc: RuleDocument; basedOn: number | null },
): Promise<number> {
  const now = nowIso();
  const row = await insertRuleSet(trx, {
    organization_id: actor.organizationId,
    version: await nextVersion(trx, actor.organizationId),
    name: v.name,
    status: 'draft',
    document: JSON.stringify(v.doc),
    notes: v.notes,
    based_on: v.basedOn,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
    approved_by: null,
    approved_by_name: null,
    approved_at: null,
  });
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'autoverify_rule_set',
    entityId: row.id,
    newValues: { version: row.version, name: row.name, based_on: v.basedOn, document: v.doc },
  });
  return row.id;
}

/** Edits a draft; an approved version is refused (a change is a new version). */
export async function updateRuleSetDraft(db: Db, actor: Actor, id: number, input: RuleSetUpdate): Promise<RuleSet> {
  await db.transaction().execute(async (trx) => {
    const row = await findRuleSet(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Rule set', id);
    if (row.status !== 'draft')
      throw new ConflictError(
        `Rule set v${row.version} is approved and cannot change; draft a new version from it`,
        'RULE_SET_APPROVED',
      );
    if (input.document) await ownedTests(trx, actor.organizationId, input.document);
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.notes !== undefined ? { notes: input.notes ?? null } : {}),
      ...(input.document ? { document: JSON.stringify(input.document) } : {}),
    };
    await updateRuleSet(trx, id, { ...patch, updated_at: nowIso() });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'autoverify_rule_set',
      entityId: id,
      oldValues: { name: row.name, notes: row.notes, document: JSON.parse(row.document) as unknown },
      newValues: { ...patch, ...(input.document ? { document: input.document } : {}) },
    });
  });
  return ruleSetOf(db, actor.organizationId, id);
}

/** A new draft version copied from any version (the next number of the lab). */
export async function newVersion(db: Db, actor: Actor, id: number): Promise<RuleSet> {
  const created = await db.transaction().execute(async (trx) => {
    const row = await findRuleSet(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Rule set', id);
    return draft(trx, actor, {
      name: row.name,
      notes: row.notes,
      doc: JSON.parse(row.document) as RuleDocument,
      basedOn: row.id,
    });
  });
  return ruleSetOf(db, actor.organizationId, created);
}

/** The approver is named on every result the version releases, with their title ("Dr Meena Rao"). */
export async function approveRuleSet(db: Db, actor: Actor, id: number): Promise<RuleSet> {
  await db.transaction().execute(async (trx) => {
    const row = await findRuleSet(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Rule set', id);
    if (row.status !== 'draft')
      throw new ConflictError(`Rule set v${row.version} is already approved`, 'RULE_SET_APPROVED');
    const user = actor.userId ? await findUser(trx, actor.organizationId, actor.userId) : undefined;
    const name = user ? titledName(user) : await actorName(trx, actor);
    const now = nowIso();
    await updateRuleSet(trx, id, {
      status: 'approved',
      approved_by: actor.userId,
      approved_by_name: name,
      approved_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'autoverify_rule_set',
      entityId: id,
      oldValues: { status: 'draft' },
      newValues: { status: 'approved', approved_by: actor.userId, approved_by_name: name, approved_at: now },
    });
  });
  return ruleSetOf(db, actor.organizationId, id);
}

/** Puts an approved version to work from a moment (now, or later), in shadow or live mode. */
export async function activateRuleSet(db: Db, actor: Actor, id: number, input: ActivationInput): Promise<RuleSet> {
  await db.transaction().execute(async (trx) => {
    const row = await findRuleSet(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Rule set', id);
    if (row.status !== 'approved')
      throw new ConflictError(`Rule set v${row.version} is a draft; it must be approved first`, 'RULE_SET_DRAFT');
    const now = nowIso();
    const from = input.active_from ? new Date(input.active_from).toISOString() : now;
    // What was in force in the past stays as it was: decisions already taken cite it.
    if (Date.parse(from) < Date.parse(now) - 60_000)
      throw ValidationError.field('active_from', 'A rule set cannot be activated in the past');
    const activationId = await insertActivation(trx, {
      organization_id: actor.organizationId,
      rule_set_id: id,
      mode: input.mode,
      active_from: from < now ? now : from,
      activated_by: actor.userId,
      created_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'autoverify_activation',
      entityId: activationId,
      newValues: { rule_set_id: id, version: row.version, mode: input.mode, active_from: from < now ? now : from },
    });
  });
  return ruleSetOf(db, actor.organizationId, id);
}

export async function autoverifyState(db: Db, organizationId: number): Promise<AutoverifyState> {
  const now = nowIso();
  const inForce = await activationAt(db, organizationId, now);
  const scheduled = await activationAfter(db, organizationId, now);
  return {
    in_force: inForce ? toActivation(inForce) : null,
    scheduled: scheduled ? toActivation(scheduled) : null,
    stops: (await stopsOf(db, organizationId)).map(toStop),
  };
}

/** Stops autoverification for the lab or one test, effective on the next result; anyone who verifies may. */
export async function stopAutoverification(db: Db, actor: Actor, input: StopInput): Promise<AutoverifyState> {
  await db.transaction().execute(async (trx) => {
    const testId = input.test_id ?? null;
    if (testId !== null) await assertOwned(trx, 'tests', actor.organizationId, [testId], 'test_id');
    const already = (await stopsOf(trx, actor.organizationId)).some((s) => s.test_id === testId);
    if (already)
      throw new ConflictError(
        testId === null
          ? 'Autoverification is already stopped for the lab'
          : 'Autoverification is already stopped for this test',
        'ALREADY_STOPPED',
      );
    const now = nowIso();
    await insertStop(trx, {
      organization_id: actor.organizationId,
      test_id: testId,
      reason: input.reason,
      stopped_by: actor.userId,
      stopped_by_name: await actorName(trx, actor),
      stopped_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'autoverify_stop',
      entityId: testId ?? 0,
      newValues: { scope: testId === null ? 'lab' : 'test', test_id: testId, reason: input.reason, at: now },
    });
  });
  return autoverifyState(db, actor.organizationId);
}

export async function resumeAutoverification(db: Db, actor: Actor, input: ResumeInput): Promise<AutoverifyState> {
  await db.transaction().execute(async (trx) => {
    const testId = input.test_id ?? null;
    const removed = await deleteStop(trx, actor.organizationId, testId);
    if (!removed)
      throw new ConflictError(
        testId === null
          ? 'Autoverification is not stopped for the lab'
          : 'Autoverification is not stopped for this test',
        'NOT_STOPPED',
      );
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'autoverify_stop',
      entityId: testId ?? 0,
      oldValues: { scope: testId === null ? 'lab' : 'test', test_id: testId },
    });
  });
  return autoverifyState(db, actor.organizationId);
}

/** Every decision the rules took on a result, oldest first. */
export async function decisionsOf(db: Db, organizationId: number, resultId: number): Promise<AutoverifyDecision[]> {
  if (!(await ownResultRow(db, organizationId, resultId))) throw new NotFoundError('Result', resultId);
  return (await decisionsOfResult(db, organizationId, resultId)).map(toDecision);
}

/** The latest decision of each of these results of the lab (the others' ids find nothing). */
export async function latestDecisionsOf(
  db: Db,
  organizationId: number,
  resultIds: number[],
): Promise<AutoverifyDecision[]> {
  return [...(await latestDecisions(db, organizationId, resultIds)).values()].map(toDecision);
}
