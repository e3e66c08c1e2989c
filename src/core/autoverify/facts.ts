import type { Db } from '../db/connection.js';
import { numericValue } from '../../shared/flags.js';
import { parseFormula } from '../../shared/formula.js';
import { ageParts } from '../../shared/age.js';
import { localDate } from '../../shared/time.js';
import { findItem } from '../catalogue/repository.js';
import type { TestsTable } from '../catalogue/tables.js';
import { findSampleRow } from '../samples/repository.js';
import { orderedTests, resultsOfSample, type ResultRow } from '../results/entry-repository.js';
import { activeLevelsOfTests, latestLevelRunAt } from '../qc/gate-repository.js';
import type { Selectable } from 'kysely';
import type { AutoverifyMode } from '../../shared/schemas/autoverify.js';
import type { AutoverifyFacts } from './evaluate.js';
import { latestDecisions } from './repository.js';

/**
 * Everything the evaluator reads about one result, gathered from the features that own it (results,
 * samples, catalogue, QC) inside the caller's transaction. The evaluator itself reads nothing.
 */

const DAY_FORMAT = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone });

export async function gatherFacts(
  trx: Db,
  organizationId: number,
  result: ResultRow,
  ctx: { instrumentFlag: string | null; mode: AutoverifyMode; timeZone: string },
): Promise<AutoverifyFacts> {
  const test = await findItem<Selectable<TestsTable>>(trx, 'tests', organizationId, result.test_id);
  const sample = await findSampleRow(trx, organizationId, { id: result.sample_id });
  const ordered = await orderedTests(trx, result.sample_id);
  const siblings = (await resultsOfSample(trx, result.sample_id)).filter((r) => r.id !== result.id);
  const names = new Map(ordered.map((t) => [t.id, t.name]));

  const sampleValues = new Map<number, { name: string; value: number }>();
  for (const r of siblings) {
    const n = r.status === 'rejected' || r.result_value === null ? null : numericValue(r.result_value);
    if (n !== null) sampleValues.set(r.test_id, { name: names.get(r.test_id) ?? `test ${r.test_id}`, value: n });
  }

  const collected = sample?.collection_date ?? result.entered_at ?? result.created_at;
  const age = sample?.patient_dob ? ageParts(sample.patient_dob, localDate(ctx.timeZone, new Date(collected))) : null;
  const fmt = DAY_FORMAT(ctx.timeZone);

  return {
    result: {
      value: result.result_value,
      unit: result.unit,
      status: result.status,
      flag: result.flag,
      normal_range: result.normal_range,
      is_critical: result.is_critical === 1,
      delta_failed: result.delta_failed === 1,
      previous_value: result.previous_value,
      previous_at: result.previous_at,
      amended: result.amended === 1,
      calculated: result.calculated === 1,
      entered_at: result.entered_at ?? result.created_at,
    },
    test: {
      id: result.test_id,
      name: test?.name ?? `test ${result.test_id}`,
      department: test?.category ?? null,
      plausible_low: test?.plausible_low ?? null,
      plausible_high: test?.plausible_high ?? null,
    },
    sampleCondition: sample?.receipt_condition ?? null,
    patientAgeDays: age?.days ?? null,
    qc: await qcLevels(trx, organizationId, result),
    instrumentFlag: ctx.instrumentFlag,
    inputs:
      result.calculated === 1 && test?.formula
        ? await inputsOf(trx, organizationId, test.formula, ordered, siblings, ctx.mode)
        : [],
    sampleValues,
    orderedTestIds: new Set(ordered.map((t) => t.id)),
    // A stop is read by the caller before the facts (decide.ts): it decides alone.
    stopped: null,
    day: (iso) => fmt.format(new Date(iso)),
  };
}

/** Each active control level of the test with its latest run at or before the result, on its machine. */
async function qcLevels(trx: Db, organizationId: number, result: ResultRow): Promise<AutoverifyFacts['qc']> {
  const at = result.entered_at ?? result.created_at;
  const levels = await activeLevelsOfTests(trx, organizationId, [result.test_id]);
  const out: AutoverifyFacts['qc'] = [];
  for (const level of levels) {
    const run = await latestLevelRunAt(trx, organizationId, level.id, at, result.equipment_id);
    out.push({
      name: level.level ?? level.name,
      run: run ? { performed_at: run.performed_at, status: run.status, overridden: run.overridden_at !== null } : null,
    });
  }
  return out;
}

/**
 * The results a calculated one is worked out from, and whether each is released: verified, or in
 * shadow mode (where nothing is released) one the rules' latest decision would release.
 */
async function inputsOf(
  trx: Db,
  organizationId: number,
  formula: string,
  ordered: Awaited<ReturnType<typeof orderedTests>>,
  siblings: ResultRow[],
  mode: AutoverifyMode,
): Promise<AutoverifyFacts['inputs']> {
  const codes = parseFormula(formula).codes;
  const tests = ordered.filter((t) => codes.includes(t.code.toUpperCase()));
  const results = tests.map((t) => ({ test: t, result: siblings.find((r) => r.test_id === t.id) }));
  const decided =
    mode === 'shadow'
      ? await latestDecisions(
          trx,
          organizationId,
          results.flatMap((r) => (r.result ? [r.result.id] : [])),
        )
      : new Map();
  return results.map(({ test, result }) => ({
    name: test.name,
    released:
      result?.status === 'verified' ||
      (result !== undefined && result.status === 'completed' && decided.get(result.id)?.decision === 'release'),
  }));
}
