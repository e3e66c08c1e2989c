import type { Generated } from 'kysely';

/** Kysely table types of autoverification (migration 050). Timestamps are ISO-8601 UTC strings. */

export interface AutoverifyRuleSetsTable {
  id: Generated<number>;
  organization_id: number;
  version: number;
  name: string;
  status: string;
  /** JSON of the rules (RuleDocument, src/shared/schemas/autoverify.ts). */
  document: string;
  notes: string | null;
  based_on: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  approved_by: number | null;
  approved_by_name: string | null;
  approved_at: string | null;
}

export interface AutoverifyActivationsTable {
  id: Generated<number>;
  organization_id: number;
  rule_set_id: number;
  mode: string;
  active_from: string;
  activated_by: number | null;
  created_at: string;
}

export interface AutoverifyStopsTable {
  id: Generated<number>;
  organization_id: number;
  /** null: the whole lab. */
  test_id: number | null;
  reason: string;
  stopped_by: number | null;
  stopped_by_name: string | null;
  stopped_at: string;
}

export interface AutoverifyDecisionsTable {
  id: Generated<number>;
  organization_id: number;
  result_id: number;
  test_id: number;
  rule_set_id: number;
  mode: string;
  decision: string;
  released: Generated<number>;
  result_value: string | null;
  /** JSON array of DecisionReason. */
  reasons: string;
  decided_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    autoverify_rule_sets: AutoverifyRuleSetsTable;
    autoverify_activations: AutoverifyActivationsTable;
    autoverify_stops: AutoverifyStopsTable;
    autoverify_decisions: AutoverifyDecisionsTable;
  }
}
