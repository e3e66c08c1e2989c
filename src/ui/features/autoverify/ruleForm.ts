import {
  defaultRuleDocument,
  ruleSetCreateSchema,
  type AutoverifyConditions,
  type RuleDocument,
  type RuleSet,
  type RuleSetCreate,
} from '@shared/schemas/autoverify';

/**
 * The rule-set editor's fields and the document they make. Numbers are kept as typed (strings)
 * and checked by the API's own schema (ruleSetCreateSchema) before anything is sent, so a message
 * sits under the field whether the browser or the server found the fault; both name a field by its
 * API path ("document.defaults.delta.limit").
 */

export interface ConditionsForm {
  numeric_only: boolean;
  reportable: boolean;
  reportable_low: string;
  reportable_high: string;
  range: AutoverifyConditions['range'];
  auto_low: string;
  auto_high: string;
  no_critical: boolean;
  delta_on: boolean;
  delta_kind: 'percent' | 'absolute';
  delta_limit: string;
  qc_on: boolean;
  qc_hours: string;
  no_instrument_flag: boolean;
  no_interference: boolean;
  calculated_from_released: boolean;
}

export interface OverrideForm {
  /** Released by the rules at all (false: always a person). */
  enabled: boolean;
  /** Its own conditions instead of those it inherits. */
  own: boolean;
  conditions: ConditionsForm;
}

export interface RuleSetForm {
  name: string;
  notes: string;
  applies_to: RuleDocument['applies_to'];
  defaults: ConditionsForm;
  departments: (OverrideForm & { department: string })[];
  tests: (OverrideForm & { test_id: string })[];
  excluded_groups: { label: string; max_age_days: string }[];
  consistency: { label: string; left_test_id: string; op: '>=' | '<=' | '>' | '<'; right_test_id: string }[];
}

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function conditionsForm(c: AutoverifyConditions): ConditionsForm {
  return {
    numeric_only: c.numeric_only,
    reportable: c.reportable,
    reportable_low: text(c.reportable_limits?.low),
    reportable_high: text(c.reportable_limits?.high),
    range: c.range,
    auto_low: text(c.auto_release_limits?.low),
    auto_high: text(c.auto_release_limits?.high),
    no_critical: c.no_critical,
    delta_on: c.delta !== null,
    delta_kind: c.delta?.kind ?? 'percent',
    delta_limit: text(c.delta?.limit),
    qc_on: c.qc_within_hours !== null,
    qc_hours: text(c.qc_within_hours ?? 24),
    no_instrument_flag: c.no_instrument_flag,
    no_interference: c.no_interference,
    calculated_from_released: c.calculated_from_released,
  };
}

/** A number as typed: empty is null; anything else goes to the schema as it is, to be judged there. */
const typed = (s: string): string | null => (s.trim() === '' ? null : s.trim());
const limitsOf = (low: string, high: string) =>
  typed(low) === null && typed(high) === null ? null : { low: typed(low), high: typed(high) };

/** The conditions as the schema reads them (numbers still as typed). */
function conditionsBody(f: ConditionsForm): Record<keyof AutoverifyConditions, unknown> {
  return {
    numeric_only: f.numeric_only,
    reportable: f.reportable,
    reportable_limits: limitsOf(f.reportable_low, f.reportable_high),
    range: f.range,
    auto_release_limits: f.range === 'auto_release' ? limitsOf(f.auto_low, f.auto_high) : null,
    no_critical: f.no_critical,
    // An empty limit is sent as typed so the schema names it ("Delta limit must be a number").
    delta: f.delta_on ? { kind: f.delta_kind, limit: f.delta_limit.trim() } : null,
    qc_within_hours: f.qc_on ? f.qc_hours.trim() : null,
    no_instrument_flag: f.no_instrument_flag,
    no_interference: f.no_interference,
    calculated_from_released: f.calculated_from_released,
  };
}

/** The form of a rule set (null: a new one, from the lab's default rules). */
export function ruleSetForm(r: RuleSet | null): RuleSetForm {
  const doc = r?.document ?? defaultRuleDocument();
  const override = (
    o: { enabled: boolean; conditions: Partial<AutoverifyConditions> },
    base: AutoverifyConditions,
  ) => ({
    enabled: o.enabled,
    own: Object.keys(o.conditions).length > 0,
    conditions: conditionsForm({ ...base, ...o.conditions }),
  });
  return {
    name: r?.name ?? '',
    notes: r?.notes ?? '',
    applies_to: doc.applies_to,
    defaults: conditionsForm(doc.defaults),
    departments: doc.departments.map((d) => ({ department: d.department, ...override(d, doc.defaults) })),
    tests: doc.tests.map((t) => ({ test_id: String(t.test_id), ...override(t, doc.defaults) })),
    excluded_groups: doc.excluded_groups.map((g) => ({ label: g.label, max_age_days: String(g.max_age_days) })),
    consistency: doc.consistency.map((c) => ({
      ...c,
      left_test_id: String(c.left_test_id),
      right_test_id: String(c.right_test_id),
    })),
  };
}

/**
 * An override keeps only the conditions that differ from what it inherits, so a later change of
 * the defaults still reaches the conditions it did not mean to change.
 */
function overrideBody(o: OverrideForm, base: Record<string, unknown>): Record<string, unknown> {
  if (!o.own) return {};
  const own = conditionsBody(o.conditions);
  return Object.fromEntries(Object.entries(own).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(base[k])));
}

export type ParsedRuleSet = { ok: true; body: RuleSetCreate } | { ok: false; errors: Record<string, string> };

/**
 * The body the API takes, checked by its schema: either the parsed body or the messages by API
 * path (the first per field). `departmentOf` gives a test's department, so a test's own
 * conditions are compared with its department's.
 */
export function ruleSetBody(f: RuleSetForm, departmentOf: (testId: number) => string | undefined): ParsedRuleSet {
  const defaults = conditionsBody(f.defaults);
  const departments = f.departments.map((d) => ({
    department: d.department,
    enabled: d.enabled,
    conditions: overrideBody(d, defaults),
  }));
  const tests = f.tests.map((t) => {
    const dept = departments.find((d) => d.department === departmentOf(Number(t.test_id)));
    return {
      test_id: t.test_id,
      enabled: t.enabled,
      conditions: overrideBody(t, { ...defaults, ...dept?.conditions }),
    };
  });
  const raw = {
    name: f.name,
    notes: f.notes.trim() === '' ? null : f.notes,
    document: {
      applies_to: f.applies_to,
      defaults,
      departments,
      tests,
      excluded_groups: f.excluded_groups.map((g) => ({ label: g.label, max_age_days: g.max_age_days.trim() })),
      consistency: f.consistency,
    },
  };
  const parsed = ruleSetCreateSchema.safeParse(raw);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    // The schema's QC age has no words of its own for a value that is not a number.
    const message =
      issue.code === 'invalid_type' && path.endsWith('qc_within_hours')
        ? 'QC age must be a whole number of hours'
        : issue.message;
    errors[path] ??= message;
  }
  return { ok: false, errors };
}

/** The API path of a condition field, under `prefix` ("document.defaults"). */
export function conditionPath(prefix: string, field: keyof ConditionsForm): string {
  const paths: Partial<Record<keyof ConditionsForm, string>> = {
    reportable_low: 'reportable_limits.low',
    reportable_high: 'reportable_limits.high',
    auto_low: 'auto_release_limits.low',
    auto_high: 'auto_release_limits.high',
    delta_limit: 'delta.limit',
    qc_hours: 'qc_within_hours',
  };
  return `${prefix}.${paths[field] ?? field}`;
}
