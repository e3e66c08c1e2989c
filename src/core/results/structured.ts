import { ConflictError, ValidationError } from '../errors.js';
import { checkStructured, templateById } from '../../shared/templates/index.js';
import type { Evaluation } from './evaluate.js';
import type { ResultRow, TestRules } from './entry-repository.js';

/** A structured result ready to store: its summary (result_value), its JSON and the server's judgement. */
export interface StructuredEntry {
  value: string;
  structured: string;
  judged: Evaluation;
}

/**
 * The parameters typed for a structured test checked against its template (400 naming the
 * parameter: `structured.protein`). The row's flag is the template's summary flag: abnormal when
 * any parameter is, so lists, the review dialog and Bulk Validate treat it as they treat a number
 * out of range. Structured results have no critical limits or delta check.
 */
export function structuredEntry(test: TestRules, raw: unknown): StructuredEntry {
  const template = templateById(test.result_template);
  if (!template)
    throw new ConflictError(
      `${test.name} is a structured test without a known result template; set its template in the catalogue`,
      'TEMPLATE_UNKNOWN',
    );
  if (raw === undefined)
    throw ValidationError.field(
      'structured',
      `${test.name} is entered parameter by parameter: send its parameters as structured`,
    );
  const c = checkStructured(template, raw);
  if (!c.ok) throw ValidationError.field(c.path, c.message);
  return {
    value: c.summary,
    structured: JSON.stringify(c.value),
    judged: {
      normal_range: null,
      flag: c.flag,
      is_critical: 0,
      review_required: c.flag === 'normal' ? 0 : 1,
      delta_failed: 0,
      previous_value: null,
      previous_at: null,
    },
  };
}

/** Parameters sent for a test that takes one value are refused rather than dropped. */
export function refuseStructured(test: TestRules, raw: unknown): void {
  if (raw !== undefined)
    throw ValidationError.field('structured', `${test.name} takes one value (result_value), not structured parameters`);
}

/** A structured result whose parameters are not resent keeps the judgement it was given. */
export function keptJudgement(r: ResultRow): Evaluation {
  return {
    normal_range: r.normal_range,
    flag: r.flag,
    is_critical: r.is_critical,
    review_required: r.review_required,
    delta_failed: r.delta_failed,
    previous_value: r.previous_value,
    previous_at: r.previous_at,
  };
}
