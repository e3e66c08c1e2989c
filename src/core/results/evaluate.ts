import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { computeFlag, isCritical } from '../../shared/flags.js';
import { checkResultValue, deltaFailed } from '../../shared/resultTypes.js';
import { ValidationError } from '../errors.js';
import { jsonList } from '../catalogue/service.js';
import { rangeForPatient } from './mappers.js';
import { patientForRange, previousResult, type TestRules } from './entry-repository.js';

export interface Evaluation {
  normal_range: string | null;
  flag: string | null;
  is_critical: number;
  review_required: number;
  delta_failed: number;
  previous_value: string | null;
  previous_at: string | null;
}

/** The typed value checked against the test's result type: 400 on result_value when it does not fit. */
export function checkedValue(test: TestRules, raw: string): string {
  const c = checkResultValue(
    {
      name: test.name,
      result_type: test.result_type,
      unit: test.unit,
      decimals: test.decimals,
      plausible_low: test.plausible_low,
      plausible_high: test.plausible_high,
      choices: jsonList(test.choices),
    },
    raw,
  );
  if (!c.ok) throw ValidationError.field('result_value', c.message);
  return c.value;
}

const DAY_MS = 86_400_000;

/**
 * The server's judgement of a value: the range for the patient's sex and age on the collection day,
 * the flag against it, critical limits (the range's, else the test's), the delta check against the
 * patient's previous verified value, and whether a validator must look closely.
 */
export async function evaluateValue(
  trx: Db,
  test: TestRules,
  patientId: number,
  sampleId: number,
  collectedAt: string | null,
  value: string,
): Promise<Evaluation> {
  const patient = await patientForRange(trx, patientId);
  const picked = rangeForPatient(test, patient, collectedAt, patient.timezone);
  const range = picked
    ? {
        ...picked,
        critical_low: picked.critical_low ?? test.critical_low,
        critical_high: picked.critical_high ?? test.critical_high,
      }
    : { range: '', critical_low: test.critical_low, critical_high: test.critical_high };
  const flag = computeFlag(value, picked?.range);
  const critical = isCritical(value, range);
  const prev = await previousResult(trx, patientId, test.id, sampleId);
  const withinWindow =
    prev?.verified_at != null &&
    (test.delta_window_days == null ||
      Date.parse(collectedAt ?? nowIso()) - Date.parse(prev.verified_at) <= test.delta_window_days * DAY_MS);
  const delta = prev?.result_value != null && withinWindow && deltaFailed(test, value, prev.result_value);
  return {
    normal_range: picked?.range ?? null,
    flag,
    is_critical: critical ? 1 : 0,
    review_required: critical || delta || (flag !== null && flag !== 'normal') ? 1 : 0,
    delta_failed: delta ? 1 : 0,
    previous_value: prev?.result_value ?? null,
    previous_at: prev?.verified_at ?? null,
  };
}

/** Custody entries and names are the samples feature's: one way to write them. */
export { actorName, addHistory as addSampleHistory } from '../samples/service.js';
