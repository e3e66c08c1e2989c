import {
  ruleDocumentSchema,
  type Activation,
  type AutoverifyDecision,
  type AutoverifyMode,
  type AutoverifyStop,
  type DecisionReason,
  type RuleDocument,
  type RuleSet,
} from '../../shared/schemas/autoverify.js';
import type { ActivationRow, DecisionRow, RuleSetListRow, stopsOf } from './repository.js';

/** Rows of autoverification as the API gives them. */

/** A stored document is read through the same schema it was written with (defaults filled in). */
export function parseDocument(json: string): RuleDocument {
  return ruleDocumentSchema.parse(JSON.parse(json));
}

const parsed = new Map<string, RuleDocument>();

/**
 * parseDocument for the rule set in force, judged at every result: an approved document never
 * changes, so its parse is kept by its text (a few versions at most).
 */
export function parsedDocument(json: string): RuleDocument {
  let doc = parsed.get(json);
  if (!doc) {
    if (parsed.size >= 8) parsed.delete(parsed.keys().next().value!);
    doc = parseDocument(json);
    parsed.set(json, doc);
  }
  return doc;
}

export function toActivation(a: ActivationRow): Activation {
  return {
    id: a.id,
    rule_set_id: a.rule_set_id,
    version: a.version,
    mode: a.mode as AutoverifyMode,
    active_from: a.active_from,
    activated_by_name: a.activated_by_name,
    created_at: a.created_at,
  };
}

export function toRuleSet(r: RuleSetListRow, activations: ActivationRow[]): RuleSet {
  return {
    id: r.id,
    version: r.version,
    name: r.name,
    status: r.status as RuleSet['status'],
    notes: r.notes,
    document: parseDocument(r.document),
    based_on: r.based_on,
    created_by_name: r.created_by_name,
    created_at: r.created_at,
    updated_at: r.updated_at,
    approved_by_name: r.approved_by_name,
    approved_at: r.approved_at,
    activations: activations.filter((a) => a.rule_set_id === r.id).map(toActivation),
  };
}

export function toDecision(d: DecisionRow): AutoverifyDecision {
  return {
    id: d.id,
    result_id: d.result_id,
    test_id: d.test_id,
    rule_set_id: d.rule_set_id,
    version: d.version,
    mode: d.mode as AutoverifyMode,
    decision: d.decision as AutoverifyDecision['decision'],
    released: d.released === 1,
    reasons: JSON.parse(d.reasons) as DecisionReason[],
    decided_at: d.decided_at,
  };
}

export function toStop(s: Awaited<ReturnType<typeof stopsOf>>[number]): AutoverifyStop {
  return {
    id: s.id,
    test_id: s.test_id,
    test_name: s.test_name,
    reason: s.reason,
    stopped_by_name: s.stopped_by_name,
    stopped_at: s.stopped_at,
  };
}
