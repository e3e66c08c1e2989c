import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type {
  AutoverifyActivationsTable,
  AutoverifyDecisionsTable,
  AutoverifyRuleSetsTable,
  AutoverifyStopsTable,
} from './tables.js';
import { fullName } from '../db/joins.js';
import { labTable, labDelete } from '../db/lab-tables.js';

/** Every query of autoverification: rule sets, activations, stops and decisions, always per lab. */

export type RuleSetRow = Selectable<AutoverifyRuleSetsTable>;

export async function nextVersion(db: Db, organizationId: number): Promise<number> {
  const row = await labTable(db, 'autoverify_rule_sets', organizationId)
    .select((eb) => eb.fn.max('version').as('v'))
    .executeTakeFirst();
  return Number(row?.v ?? 0) + 1;
}

export function insertRuleSet(db: Db, values: Insertable<AutoverifyRuleSetsTable>): Promise<RuleSetRow> {
  return db.insertInto('autoverify_rule_sets').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateRuleSet(db: Db, id: number, patch: Updateable<AutoverifyRuleSetsTable>): Promise<void> {
  await db.updateTable('autoverify_rule_sets').set(patch).where('id', '=', id).execute();
}

function ruleSets(db: Db, organizationId: number) {
  return db
    .selectFrom('autoverify_rule_sets as rs')
    .leftJoin('users as cu', 'cu.id', 'rs.created_by')
    .selectAll('rs')
    .select(fullName('cu').as('created_by_name'))
    .where('rs.organization_id', '=', organizationId);
}
export type RuleSetListRow = Awaited<ReturnType<ReturnType<typeof ruleSets>['executeTakeFirstOrThrow']>>;

export function findRuleSet(db: Db, organizationId: number, id: number): Promise<RuleSetListRow | undefined> {
  return ruleSets(db, organizationId).where('rs.id', '=', id).executeTakeFirst();
}

export function listRuleSets(db: Db, organizationId: number): Promise<RuleSetListRow[]> {
  return ruleSets(db, organizationId).orderBy('rs.version', 'desc').execute();
}

export async function insertActivation(db: Db, values: Insertable<AutoverifyActivationsTable>): Promise<number> {
  const row = await db.insertInto('autoverify_activations').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The lab's activations (`a`), each with the rule set it puts in force (`rs`). */
function activationsWithSets(db: Db, organizationId: number) {
  return db
    .selectFrom('autoverify_activations as a')
    .innerJoin('autoverify_rule_sets as rs', 'rs.id', 'a.rule_set_id')
    .where('a.organization_id', '=', organizationId);
}

function activations(db: Db, organizationId: number) {
  return activationsWithSets(db, organizationId)
    .leftJoin('users as au', 'au.id', 'a.activated_by')
    .select([
      'a.id',
      'a.rule_set_id',
      'rs.version',
      'a.mode',
      'a.active_from',
      'a.created_at',
      fullName('au').as('activated_by_name'),
    ]);
}
export type ActivationRow = Awaited<ReturnType<ReturnType<typeof activations>['executeTakeFirstOrThrow']>>;

export function activationsOf(db: Db, organizationId: number, ruleSetIds: number[]): Promise<ActivationRow[]> {
  if (!ruleSetIds.length) return Promise.resolve([]);
  return activations(db, organizationId)
    .where('a.rule_set_id', 'in', ruleSetIds)
    .orderBy('a.active_from')
    .orderBy('a.id')
    .execute();
}

/** The activation in force at a moment: the latest from at or before it (the later recorded on a tie). */
export function activationAt(db: Db, organizationId: number, atIso: string): Promise<ActivationRow | undefined> {
  return activations(db, organizationId)
    .where('a.active_from', '<=', atIso)
    .orderBy('a.active_from', 'desc')
    .orderBy('a.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The rule set in force at a moment with what judging needs of it, in one read (asked at every result). */
export function inForceAt(db: Db, organizationId: number, atIso: string) {
  return activationsWithSets(db, organizationId)
    .select(['a.mode', 'rs.id', 'rs.version', 'rs.document', 'rs.approved_by_name'])
    .where('a.active_from', '<=', atIso)
    .orderBy('a.active_from', 'desc')
    .orderBy('a.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The next activation after a moment, if one is scheduled. */
export function activationAfter(db: Db, organizationId: number, atIso: string): Promise<ActivationRow | undefined> {
  return activations(db, organizationId)
    .where('a.active_from', '>', atIso)
    .orderBy('a.active_from')
    .orderBy('a.id')
    .limit(1)
    .executeTakeFirst();
}

export async function insertStop(db: Db, values: Insertable<AutoverifyStopsTable>): Promise<void> {
  await db.insertInto('autoverify_stops').values(values).execute();
}

export async function deleteStop(db: Db, organizationId: number, testId: number | null): Promise<number> {
  let q = labDelete(db, 'autoverify_stops', organizationId);
  q = testId === null ? q.where('test_id', 'is', null) : q.where('test_id', '=', testId);
  const res = await q.executeTakeFirst();
  return Number(res.numDeletedRows);
}

export function stopsOf(db: Db, organizationId: number) {
  return db
    .selectFrom('autoverify_stops as s')
    .leftJoin('tests as t', 't.id', 's.test_id')
    .select(['s.id', 's.test_id', 't.name as test_name', 's.reason', 's.stopped_by_name', 's.stopped_at'])
    .where('s.organization_id', '=', organizationId)
    .orderBy('s.stopped_at')
    .orderBy('s.id')
    .execute();
}

/** The stop that holds a test's results: the lab-wide one first, else the test's own. */
export function stopFor(db: Db, organizationId: number, testId: number) {
  return labTable(db, 'autoverify_stops', organizationId)
    .select(['test_id', 'reason', 'stopped_by_name', 'stopped_at'])
    .where((eb) => eb.or([eb('test_id', 'is', null), eb('test_id', '=', testId)]))
    .orderBy(sql`CASE WHEN test_id IS NULL THEN 0 ELSE 1 END`)
    .limit(1)
    .executeTakeFirst();
}

export function insertDecision(db: Db, values: Insertable<AutoverifyDecisionsTable>) {
  return db.insertInto('autoverify_decisions').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function markReleased(db: Db, id: number): Promise<void> {
  await db.updateTable('autoverify_decisions').set({ released: 1 }).where('id', '=', id).execute();
}

function decisions(db: Db, organizationId: number) {
  return db
    .selectFrom('autoverify_decisions as d')
    .innerJoin('autoverify_rule_sets as rs', 'rs.id', 'd.rule_set_id')
    .select([
      'd.id',
      'd.result_id',
      'd.test_id',
      'd.rule_set_id',
      'rs.version',
      'd.mode',
      'd.decision',
      'd.released',
      'd.result_value',
      'd.reasons',
      'd.decided_at',
    ])
    .where('d.organization_id', '=', organizationId);
}
export type DecisionRow = Awaited<ReturnType<ReturnType<typeof decisions>['executeTakeFirstOrThrow']>>;

export function decisionsOfResult(db: Db, organizationId: number, resultId: number): Promise<DecisionRow[]> {
  return decisions(db, organizationId).where('d.result_id', '=', resultId).orderBy('d.id').execute();
}

/** The latest decision of each of some results. */
export async function latestDecisions(
  db: Db,
  organizationId: number,
  resultIds: number[],
): Promise<Map<number, DecisionRow>> {
  if (!resultIds.length) return new Map();
  const rows = await decisions(db, organizationId).where('d.result_id', 'in', resultIds).orderBy('d.id').execute();
  return new Map(rows.map((r) => [r.result_id, r]));
}

/**
 * The shadow decisions taken between two moments, each with what has become of its result since:
 * its status, value and amendment, and who verified it. Only the latest decision of a result counts.
 */
export async function shadowDecisionsBetween(
  db: Db,
  organizationId: number,
  fromIso: string,
  toIso: string,
  ruleSetId: number | undefined,
) {
  let q = db
    .selectFrom('autoverify_decisions as d')
    .innerJoin('test_results as r', 'r.id', 'd.result_id')
    .innerJoin('samples as s', 's.id', 'r.sample_id')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .innerJoin('patients as p', 'p.id', 's.patient_id')
    .leftJoin('users as vu', 'vu.id', 'r.verified_by')
    .select([
      'd.id',
      'd.result_id',
      'd.decision',
      'd.result_value as judged_value',
      'd.reasons',
      'd.decided_at',
      'r.status',
      'r.result_value',
      'r.unit',
      'r.amended',
      'r.rejection_reason',
      's.sample_code',
      'p.patient_code',
      fullName('p').as('patient_name'),
      't.name as test_name',
      fullName('vu').as('verified_by_name'),
    ])
    .where('d.organization_id', '=', organizationId)
    .where('d.mode', '=', 'shadow')
    .where('d.decided_at', '>=', fromIso)
    .where('d.decided_at', '<', toIso);
  if (ruleSetId !== undefined) q = q.where('d.rule_set_id', '=', ruleSetId);
  const rows = await q.orderBy('d.id').execute();
  return [...new Map(rows.map((r) => [r.result_id, r])).values()];
}
